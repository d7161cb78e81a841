package library

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrMissingParam: a required template parameter has no value.
	ErrMissingParam = errors.New("missing value")
	// ErrInvalidParam: a parameter's value does not match its schema.
	ErrInvalidParam = errors.New("invalid value")
	// ErrUnknownParam: a value was given for a parameter the template does not declare.
	ErrUnknownParam = errors.New("unknown parameter")
	// ErrBadTemplate: the template itself is wrong (a placeholder its schema
	// does not declare, a schema that is not an object schema).
	ErrBadTemplate = errors.New("invalid template")
	// ErrUnknownTemplate: no template has that ID.
	ErrUnknownTemplate = errors.New("no such template")
	// ErrBadMetadata: a metadata or profile field is not valid.
	ErrBadMetadata = errors.New("invalid server metadata")
	// ErrUnknownProfile: no server declares the profile.
	ErrUnknownProfile = errors.New("no server has that profile")
)

// ParamError is a problem with one template parameter.
type ParamError struct {
	Template string // template ID or server name
	Param    string
	Err      error // wraps one of the sentinels
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("template %s: parameter %q: %v", e.Template, e.Param, e.Err)
}

func (e *ParamError) Unwrap() error { return e.Err }

// FieldError is a problem with one field of a server's library keys; Path is
// the JSON path inside config.json (mcpServers.github.profiles.work.url).
type FieldError struct {
	Path string
	Err  error
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }
