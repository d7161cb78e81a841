package builtin

import (
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Args reads a tool call's arguments for a built-in server's handler,
// keeping the first problem in Err so a handler checks once:
//
//	a := builtin.ArgsOf(req, invalid)
//	path, limit := a.Str("path", true, true), a.Int("limit")
//	if a.Err != nil {
//		return mcp.NewToolResultError(a.Err.Error()), nil
//	}
//
// Each problem is made by the server's own invalid func, so it wraps that
// server's sentinel error.
type Args struct {
	M   map[string]any
	Err error

	invalid func(format string, args ...any) error
}

// ArgsOf returns the arguments of req.
func ArgsOf(req mcp.CallToolRequest, invalid func(format string, args ...any) error) *Args {
	a := &Args{M: req.GetArguments(), invalid: invalid}
	if a.M == nil && req.Params.Arguments != nil {
		a.Err = invalid("arguments must be a JSON object")
	}
	return a
}

// Fail records a problem unless one is recorded already.
func (a *Args) Fail(format string, args ...any) {
	if a.Err == nil {
		a.Err = a.invalid(format, args...)
	}
}

// Str reads a string; required ones must be present and, if nonEmpty, not
// blank.
func (a *Args) Str(key string, required, nonEmpty bool) string {
	v, ok := a.M[key]
	if !ok || v == nil {
		if required {
			a.Fail("%s is required", key)
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		a.Fail("%s must be a string", key)
	}
	if nonEmpty && strings.TrimSpace(s) == "" {
		a.Fail("%s must not be empty", key)
	}
	return s
}

// Int reads a whole number (0 when absent); numbers sent as strings are
// accepted, as some clients send them.
func (a *Args) Int(key string) int {
	f := a.number(key)
	if f != float64(int(f)) {
		a.Fail("%s must be a whole number", key)
	}
	return int(f)
}

// Count reads a whole number that must not be negative (0 when absent).
func (a *Args) Count(key string) int {
	f := a.number(key)
	if f != float64(int(f)) || f < 0 {
		a.Fail("%s must be a positive whole number", key)
	}
	return int(f)
}

func (a *Args) number(key string) float64 {
	v, ok := a.M[key]
	if !ok || v == nil {
		return 0
	}
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case string:
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			a.Fail("%s must be a number", key)
		}
		return f
	}
	a.Fail("%s must be a number", key)
	return 0
}
