package gui

import (
	"errors"
	"fmt"
	"github.com/switchboard-app/switchboard/app/host"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"time"
)

// ServerFormView is one server as the edit form shows it (and sends it
// back to save): the fields a person edits; the rest of the entry (roots,
// sandbox, restart policy, unknown keys) is kept as it is.
type ServerFormView struct {
	Name      string         `json:"name"`
	Transport string         `json:"transport"` // stdio, http or sse
	Command   string         `json:"command"`
	Args      []string       `json:"args"`
	Env       []KeyValueView `json:"env"`
	Cwd       string         `json:"cwd"`
	// EnvFile is a KEY=VALUE file whose variables a local server gets
	// under Env's ("envFile").
	EnvFile string         `json:"envFile"`
	URL     string         `json:"url"`
	Headers []KeyValueView `json:"headers"`
	// Timeouts in milliseconds; 0 is the default.
	StartupTimeoutMs float64 `json:"startupTimeoutMs"`
	ToolTimeoutMs    float64 `json:"toolTimeoutMs"`
	Enabled          bool    `json:"enabled"`
	// IncludeTools, when not empty, are the only tools offered;
	// ExcludeTools are never offered ("includeTools", "excludeTools").
	IncludeTools []string `json:"includeTools"`
	ExcludeTools []string `json:"excludeTools"`
	// JSON is the entry as config.json holds it ("Edit as JSON").
	JSON string `json:"json"`
	// Base is the entry as loaded, handed back on save: a save refuses to
	// overwrite an entry changed on disk meanwhile ("" for a new server).
	Base string `json:"base"`
	// ConfigPath is config.json's path (shown beside "Open config file").
	ConfigPath string `json:"configPath"`
}

// KeyValueView is one environment variable or header.
type KeyValueView struct {
	Key   string `json:"key"`
	Value string `json:"value"` // "" for a stored secret: its value never leaves the keyring
	// Secret: the value goes to (or is) in the OS keyring.
	Secret bool `json:"secret"`
	// SecretRef is the ${secret:NAME} a stored secret's entry holds; a save
	// with Value "" keeps it.
	SecretRef string `json:"secretRef"`
}

// FieldProblemView is one thing wrong with a saved form or JSON text.
// Field is the entry's JSON path ("command", "env.TOKEN", "name"); Line and
// Col locate it in "Edit as JSON" text (0 for the form).
type FieldProblemView struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	// Warning: the entry can be saved as it is, but probably does not
	// mean what was typed (a ${userHome} config.json gives no value).
	Warning bool `json:"warning"`
}

// ServerSaveView is the outcome of a save: the problems (nothing was
// saved), or the server as it runs after the save.
type ServerSaveView struct {
	Problems []FieldProblemView `json:"problems"`
	Saved    bool               `json:"saved"`
	Server   ServerView         `json:"server"`
	Tools    int                `json:"tools"`
	// UnknownTools are names the form offers or leaves out that the
	// running server does not list.
	UnknownTools []string `json:"unknownTools"`
}

// SaveWait bounds how long a save waits for the server to start again.
var SaveWait = 90 * time.Second

var wholeSecretRef = regexp.MustCompile(`^\$\{secret:[^}]+\}$`)

// keyValues lists a map sorted by key; a value that is one ${secret:...}
// shows as a stored secret.
func keyValues(m map[string]string) []KeyValueView {
	out := []KeyValueView{}
	for k, v := range m {
		if wholeSecretRef.MatchString(v) {
			out = append(out, KeyValueView{Key: k, Secret: true, SecretRef: v})
			continue
		}
		out = append(out, KeyValueView{Key: k, Value: v})
	}
	slices.SortFunc(out, func(a, b KeyValueView) int {
		if a.Key < b.Key {
			return -1
		}
		if a.Key > b.Key {
			return 1
		}
		return 0
	})
	return out
}

// problemsOf turns a validation error into problems; any other error is
// returned as it is (and no problems).
func problemsOf(err error) ([]FieldProblemView, error) {
	out := []FieldProblemView{}
	if err == nil {
		return out, nil
	}
	var ve *host.ValidationError
	if !errors.As(err, &ve) {
		return out, err
	}
	for _, p := range ve.Errors() {
		out = append(out, FieldProblemView{Field: p.Path, Message: p.Message, Line: p.Line, Col: p.Col})
	}
	return out, nil
}

// rows turns key/value rows into a map; a secret's new value goes to
// secrets instead (a stored one keeps its reference).
func rows(field, what string, kvs []KeyValueView, secrets map[string]string) (map[string]string, []FieldProblemView) {
	var probs []FieldProblemView
	out := map[string]string{}
	for _, kv := range kvs {
		switch {
		case kv.Key == "" && kv.Value == "":
			continue // a blank row
		case kv.Key == "":
			probs = append(probs, FieldProblemView{Field: field, Message: fmt.Sprintf("a %s has a value but no name; name it or remove the row", what)})
			continue
		}
		if _, dup := out[kv.Key]; dup {
			probs = append(probs, FieldProblemView{Field: field + "." + kv.Key, Message: fmt.Sprintf("%s %s is set twice; remove one row", what, kv.Key)})
			continue
		}
		out[kv.Key] = kv.Value
		if kv.Secret {
			if kv.Value == "" && kv.SecretRef != "" {
				out[kv.Key] = kv.SecretRef
			} else {
				secrets[field+"."+kv.Key] = kv.Value
			}
		}
	}
	if len(out) == 0 {
		out = nil
	}
	return out, probs
}

// openInEditor opens a file in the desktop's application for it; tests
// replace it.
var openInEditor = func(path string) error {
	name, args := "xdg-open", []string{path}
	switch runtime.GOOS {
	case "darwin":
		name, args = "open", []string{"-t", path} // -t: the default text editor
	case "windows":
		name, args = "notepad", []string{path} // .json has no default application there
	}
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s with %s: %w; open the file in your editor yourself", path, name, err)
	}
	go cmd.Wait() //nolint:errcheck // the editor's exit status is not ours to report
	return nil
}
