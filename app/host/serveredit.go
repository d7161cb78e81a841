package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// ServerEdit is one save of a server from the window's form (or JSON
// editor) or the CLI.
type ServerEdit struct {
	// Old is the entry's name as loaded; "" adds a new server.
	Old string
	// Base is the entry as loaded (EntryJSON); when config.json's entry is
	// no longer that, the save fails with ErrChangedOnDisk. "" skips the
	// check (the CLI, which reads and writes in one step).
	Base string
	// Server is the entry as it should be; a Name other than Old renames it.
	Server Server
	// Secrets are values to keep in the OS keyring, by field: "env.NAME" or
	// "headers.NAME". The entry gets a ${secret:...} reference in their
	// place, so config.json never holds them.
	Secrets map[string]string
	// Detect also moves the secret-looking env and header values of Server
	// to the keyring, by the rule an import follows (secrets.Extract):
	// 'servers add --env TOKEN=...' keeps no token in config.json. Fields
	// in Plaintext ("env.NAME") stay as they are.
	Detect    bool
	Plaintext map[string]bool
}

// Saved is a server after a save, once it has started (or failed to).
type Saved struct {
	Status supervisor.Status
	Tools  int // its tools, when Status is ready
	// Changed is false when the entry was already so (nothing was written).
	Changed bool
	// UnknownTools are names in the entry's includeTools or excludeTools
	// that the running server does not list (a typo, or a tool it dropped).
	UnknownTools []string
}

// EntryJSON is a server's entry as config.json holds it (without its
// name), indented: what "Edit as JSON" shows, and the Base of a ServerEdit.
func EntryJSON(s Server) (string, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ParseEntry reads one entry as "Edit as JSON" holds it (comments and
// trailing commas allowed, as in config.json). Problems come back as a
// *ValidationError whose paths are the entry's own ("command",
// "env.TOKEN") with line:column in text.
func ParseEntry(name, text string) (Server, error) {
	s := Server{Name: name}
	if err := s.UnmarshalJSON([]byte(text)); err != nil {
		if errors.Is(err, config.ErrEmpty) {
			return s, &ValidationError{Kind: config.ErrEmpty, Problems: []config.Problem{{Severity: config.SeverityError,
				Message: `the entry is empty; write an object such as {"command": "npx", "args": ["-y", "some-server"]}`}}}
		}
		return s, err
	}
	s.Name = name
	return s, nil
}

// Check validates e as Save would, without saving: the same
// rules as a parsed config.json, problems by field ("name", "command",
// "url", "env.NAME", ...) in a *ValidationError.
func (s *Servers) Check(e ServerEdit) error {
	h := s.h
	srv, err := withSecretRefs(e.Server, e.Secrets, func(field, _ string) (string, error) {
		return "${secret:" + field + "}", nil // a stand-in: nothing is kept by a check
	})
	if err != nil {
		return err
	}
	if err := checkEntry(srv); err != nil {
		return err
	}
	if srv.Name != e.Old {
		if _, taken := h.Servers.Get(srv.Name); taken {
			return &ValidationError{Kind: config.ErrInvalid, Problems: []config.Problem{{Path: "name", Severity: config.SeverityError,
				Message: fmt.Sprintf("a server named %q already exists; choose another name", srv.Name)}}}
		}
	}
	return nil
}

// Warnings are what Check lets through but the form should still point at:
// a ${userHome} or ${workspaceFolder} typed (or pasted) into a field, which
// config.json gives no value, so the server would get the text as it is,
// and the file's own warnings (an envFile that is not an absolute path).
// Paths are the entry's own fields ("args[0]", "env.ROOT").
func (e ServerEdit) Warnings() []Problem {
	return append(e.Server.UnresolvedVariables(), e.Server.Warnings()...)
}

// checkEntry checks s by reading its JSON back as a file entry is read,
// so the form and config.json agree; paths are relative to the entry.
func checkEntry(s Server) error {
	var probs []config.Problem
	if msg := nameProblem(s.Name); msg != "" {
		probs = append(probs, config.Problem{Path: "name", Severity: config.SeverityError, Message: msg})
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	var back Server
	if err := back.UnmarshalJSON(raw); err != nil {
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return err
		}
		for _, p := range ve.Errors() {
			p.Line, p.Col = 0, 0 // positions in generated JSON mean nothing to the form
			p.Path = entryField(p, s)
			probs = append(probs, p)
		}
	}
	if len(probs) > 0 {
		return &ValidationError{Kind: config.ErrInvalid, Problems: probs}
	}
	return nil
}

// nameProblem says what is wrong with a server's name, or "".
func nameProblem(name string) string {
	switch {
	case strings.TrimSpace(name) == "":
		return "must not be empty; give the server a name: it prefixes its tools (name__tool)"
	case strings.TrimSpace(name) != name:
		return "must not start or end with a space"
	case builtin.Reserved(name):
		return fmt.Sprintf("%q is the name of a server built into Switchboard; choose another name", name)
	}
	return ""
}

// entryField puts a problem about the entry as a whole on the field that
// fixes it (a stdio server without "command": the command field).
func entryField(p config.Problem, s Server) string {
	if p.Path != "" {
		return p.Path
	}
	if s.Transport == config.Stdio || s.Transport == "" && s.URL == "" {
		return "command"
	}
	return "url"
}

// withSecretRefs returns s with each secret value replaced by the reference
// keep returns for it; keep is given the field ("env.NAME", "headers.NAME")
// and the value.
func withSecretRefs(s Server, values map[string]string, keep func(field, value string) (string, error)) (Server, error) {
	s = s.Clone()
	for _, field := range slices.Sorted(maps.Keys(values)) {
		kind, key, ok := strings.Cut(field, ".")
		var m *map[string]string
		switch kind {
		case "env":
			m = &s.Env
		case "headers":
			m = &s.Headers
		}
		if !ok || m == nil || key == "" {
			return s, fmt.Errorf("secret %q: only env.NAME and headers.NAME can be kept in the keyring", field)
		}
		if values[field] == "" {
			return s, &ValidationError{Kind: config.ErrInvalid, Problems: []config.Problem{{
				Path: field, Severity: config.SeverityError, Message: "is marked secret but has no value; enter the value, or untick secret",
			}}}
		}
		ref, err := keep(field, values[field])
		if err != nil {
			return s, err
		}
		if *m == nil {
			*m = map[string]string{}
		}
		(*m)[key] = ref
	}
	return s, nil
}

// Save adds (e.Old == "") or replaces one server as one locked edit of
// config.json: the entry is checked with config.json's own rules, secret
// values go to the keyring first, then the entry is written in its place
// (other entries as they are on disk now, whoever changed them). The server
// then restarts with it, and Save waits until it is ready or in error
// (or ctx ends) and returns how it went. A rename keeps the entry's place;
// the new name must be free, and whatever the settings name the server by
// (agents, approval policies and rules, pinned tools, result budgets,
// switched-off skills, connected apps' server lists) is renamed with it.
func (s *Servers) Save(ctx context.Context, e ServerEdit) (Saved, error) {
	h := s.h
	if err := h.Servers.Check(e); err != nil {
		return Saved{}, err
	}
	name := e.Server.Name
	if e.Detect {
		e.Secrets = detected(e.Server, e.Secrets, e.Plaintext)
	}
	var before Server // the entry as it was: its references are not new
	if e.Old != "" {
		if cfg, err := h.readConfig(); err == nil {
			before, _ = cfg.Lookup(e.Old)
		}
	}
	keep := &secrets.Keeper{Store: h.store, ID: before.ID}
	srv, err := withSecretRefs(e.Server, e.Secrets, func(field, value string) (string, error) {
		ref, err := keep.Keep(field, value)
		if err == nil {
			h.red.Add(value)
		}
		return ref, err
	})
	if err != nil {
		return Saved{}, err
	}
	if keep.ID == "" {
		keep.ID = secrets.NewID()
	}
	srv.ID = keep.ID // a rename keeps the id, and with it the keyring entries
	// A reference the user typed here (not one the entry had) is theirs
	// to give: it is granted, as 'secrets set' + ${secret:NAME} always was.
	var typed []string
	for _, n := range secrets.ServerRefs(srv) {
		if !secrets.OwnedBy(n, srv.ID) && !slices.Contains(secrets.ServerRefs(before), n) {
			typed = append(typed, n)
		}
	}
	var changed bool
	err = h.edit(func(cfg *config.Config) error {
		i := len(cfg.Servers)
		if e.Old != "" {
			j, err := index(cfg, e.Old)
			if err != nil {
				return fmt.Errorf("%w (it was removed or renamed meanwhile); close the form and add it again", err)
			}
			i = j
			if e.Base != "" {
				now, err := EntryJSON(cfg.Servers[j])
				if err != nil {
					return err
				}
				if now != e.Base {
					return fmt.Errorf("server %q was %w since this form loaded it (by the CLI, an editor or another window); nothing was saved: close the form and edit it again", e.Old, ErrChangedOnDisk)
				}
			}
		}
		if name != e.Old {
			if err := nameFree(cfg, name, pickAnother); err != nil {
				return err
			}
		}
		if i == len(cfg.Servers) {
			cfg.Servers = append(cfg.Servers, srv)
			changed = true
		} else {
			old, _ := EntryJSON(cfg.Servers[i])
			now, _ := EntryJSON(srv)
			changed = old != now || name != e.Old
			if name != e.Old {
				// In this same write: agents, policies and connected
				// apps follow the server to its new name.
				renameServerRefs(cfg, e.Old, name)
			}
			cfg.Servers[i] = srv
		}
		if len(typed) > 0 {
			if err := secrets.Grant(cfg, srv.ID, true, typed...); err != nil {
				return err
			}
		}
		if len(keep.Names) > 0 {
			return secrets.Index(cfg, true, keep.Names...)
		}
		return nil
	})
	if err != nil {
		return Saved{}, err
	}
	if !h.live {
		return Saved{Changed: changed}, nil // the CLI: nothing runs here
	}
	if !changed {
		// The same entry starts nothing by itself (a new value behind the
		// same ${secret:...} does: it is resolved at apply), and a save is
		// how a user retries a server in error.
		if st, ok := h.Servers.StatusOf(name); ok && st.State != supervisor.Disabled {
			if err := h.mgr.Restart(ctx, name); err != nil {
				return Saved{Changed: changed}, err
			}
		}
	}
	res, err := h.Servers.Wait(ctx, name)
	res.Changed = changed
	if err == nil && res.Status.State == supervisor.Ready {
		res.UnknownTools = s.unknownTools(ctx, name, append(slices.Clone(srv.IncludeTools), srv.ExcludeTools...))
	}
	return res, err
}

// unknownTools are the names the server does not list, of those its
// entry offers or leaves out: a name typed wrong would silently do
// nothing.
func (s *Servers) unknownTools(ctx context.Context, name string, named []string) []string {
	if len(named) == 0 {
		return nil
	}
	listed, err := router.ListedTools(ctx, s.h.router(), name)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range named {
		if !slices.ContainsFunc(listed, func(t mcp.Tool) bool { return t.Name == n }) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// settled: the server is no longer on its way to running.
func settled(s supervisor.State) bool {
	switch s {
	case supervisor.Starting, supervisor.Installing, supervisor.Restarting, supervisor.Stopped:
		return false
	}
	return true
}

// Wait waits until a server is ready, in error, disabled or waiting
// for a login, and returns that status with its tool count (when ready).
func (s *Servers) Wait(ctx context.Context, name string) (Saved, error) {
	h := s.h
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		if st, ok := h.Servers.StatusOf(name); ok && settled(st.State) {
			res := Saved{Status: st}
			res.Status.Error = h.Redact(st.Error)
			if st.State == supervisor.Ready {
				if tools, err := h.router().ServerTools(ctx, name); err == nil {
					res.Tools = len(tools)
				}
			}
			return res, nil
		}
		select {
		case <-ctx.Done():
			return Saved{}, fmt.Errorf("%s was saved but has not started yet (%w); its row shows when it does", name, ctx.Err())
		case <-t.C:
		}
	}
}

// detected adds to values the secret-looking env and header values of s
// (the rule of an import, secrets.Extract), but for the plaintext fields.
func detected(s Server, values map[string]string, plaintext map[string]bool) map[string]string {
	out := maps.Clone(values)
	if out == nil {
		out = map[string]string{}
	}
	keep := map[string]bool{}
	for f := range plaintext {
		keep[s.Name+"."+f] = true
	}
	_, moves := secrets.Extract(s, keep)
	for _, m := range moves {
		// An import also moves credentials written in args and the URL;
		// a form's or 'servers add''s values are env and headers only.
		kind, _, _ := strings.Cut(m.Field, ".")
		if _, set := out[m.Field]; !set && (kind == "env" || kind == "headers") {
			out[m.Field] = m.Value()
		}
	}
	return out
}

// LooksSecret reports whether a value under that env variable (header:
// header) name should go to the keyring: the rule an import and
// 'servers add' follow, for the form to propose it.
func (s *Servers) LooksSecret(name, value string, header bool) bool {
	return secrets.LooksSecret(name, value, header)
}
