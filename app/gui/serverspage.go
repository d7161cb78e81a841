package gui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// ServersPage is the Servers page: status, import, library, profiles.
type ServersPage struct{ *core }

// PreviewImport shows, per server, what importing text would do. Nothing
// changes. plaintext lists secret keys (server.env.VAR) the user keeps in the file.
func (a *ServersPage) PreviewImport(name, text string, plaintext []string) (ImportPreview, error) {
	res, err := a.h.ServerFiles.Import(a.life, host.ImportRequest{Name: name, Data: []byte(text), Plaintext: keepSet(plaintext), DryRun: true})
	if res.File == nil {
		return ImportPreview{Items: []ImportItemView{}, Inputs: []InputView{}, Problems: parseProblems(err)}, nil
	}
	if err != nil {
		return ImportPreview{}, err
	}
	f, plan := res.File, res.Plan
	out := ImportPreview{Format: string(f.Format), Items: make([]ImportItemView, 0, len(plan.Items)), Inputs: []InputView{}, Problems: []ProblemView{}}
	for _, it := range plan.Items {
		v := ImportItemView{
			Name: it.Name, Outcome: string(it.Outcome), Default: string(it.Default), RenameTo: it.RenameTo,
			Transport: string(it.Incoming.Transport), Target: it.Incoming.Target(),
			Changes: []string{}, Problems: problemViews(it.Problems), NeedsInputs: it.NeedsInputs,
			Disabled: it.Incoming.Disabled,
		}
		if v.NeedsInputs == nil {
			v.NeedsInputs = []string{}
		}
		v.Secrets = []SecretMove{}
		for _, m := range res.Moves {
			if m.Server == it.Name {
				v.Secrets = append(v.Secrets, SecretMove{Key: m.Key(), Field: m.Field, Name: m.Name, Masked: m.Masked, Input: m.Input})
			}
		}
		// The preview must not show a secret the user kept in plaintext either.
		v.Target = a.h.Redact(v.Target)
		for _, c := range it.Changes {
			v.Changes = append(v.Changes, c.String())
		}
		out.Items = append(out.Items, v)
	}
	used := map[string]bool{}
	for _, id := range f.InputIDs() {
		used[id] = true
	}
	for _, in := range f.Inputs {
		if used[in.ID] {
			out.Inputs = append(out.Inputs, InputView{ID: in.ID, Description: in.Description, Password: in.Password,
				Default: in.Default, Options: inputOptions(in.Options)})
			delete(used, in.ID)
		}
	}
	for _, id := range f.InputIDs() { // referenced but not declared
		if used[id] {
			out.Inputs = append(out.Inputs, InputView{ID: id, Options: []InputOption{}})
		}
	}
	return out, nil
}

// ApplyImport imports text with the user's choices (server name → keep,
// replace or rename) and input values, saves config.json atomically and
// starts what was added. It returns how many servers were imported.
// With sandbox, the imported local servers run in the default sandbox.
func (a *ServersPage) ApplyImport(name, text string, resolutions map[string]string, inputs map[string]string, plaintext []string, sandbox bool) (int, error) {
	res := make(map[string]host.Resolution, len(resolutions))
	for k, v := range resolutions {
		res[k] = host.Resolution(v)
	}
	out, err := a.h.ServerFiles.Import(a.life, host.ImportRequest{Name: name, Data: []byte(text), Resolutions: res, Inputs: inputs, Plaintext: keepSet(plaintext), Sandbox: sandbox})
	if out.File == nil && err != nil {
		return 0, errors.New(parseProblems(err)[0].Text)
	}
	return out.Imported, err
}

// DiscoverConfigs finds the MCP configs of other apps on this machine.
func (a *ServersPage) DiscoverConfigs() ([]DiscoveredConfig, error) {
	return a.discoverConfigs(a.life), nil
}

// ReadConfigFile returns the text of a discovered config for the import
// wizard. Only files DiscoverConfigs reports can be read this way.
func (a *ServersPage) ReadConfigFile(path string) (string, error) {
	return a.h.ServerFiles.ReadDiscovered(path)
}

// SetServerMeta saves what the user says about a server: description, tags,
// docs URL, colour and icon.
func (a *ServersPage) SetServerMeta(name string, m MetaView) error {
	return a.h.Library.SetMeta(name, host.ServerMeta{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon})
}

// Templates lists the catalogue and the templates declared in config.json.
func (a *ServersPage) Templates() ([]TemplateView, error) {
	var out []TemplateView
	for _, t := range a.h.Library.Templates() {
		source := "catalogue"
		if t.FromConfig {
			source = "config"
		}
		v := TemplateView{ID: t.ID, Title: t.Title, Description: t.Description, Tags: t.Tags, DocsURL: t.DocsURL, Source: source, Preview: t.Server.Target()}
		ps, err := t.Params()
		if err != nil {
			v.Error = err.Error()
		}
		v.Params = host.ParamsView(ps)
		if v.Params == nil {
			v.Params = []host.TemplateParam{}
		}
		if v.Tags == nil {
			v.Tags = []string{}
		}
		out = append(out, v)
	}
	return out, nil
}

// AddServerFromTemplate adds the server a template makes with the values
// the user typed. Secret parameters go to the keyring as
// "<server>.<param>" and the config holds a ${secret:...} reference.
func (a *ServersPage) AddServerFromTemplate(templateID, name string, values map[string]string) error {
	_, err := a.h.Library.AddFromTemplate(templateID, name, values)
	if errors.Is(err, host.ErrUnknownTemplate) {
		return fmt.Errorf("no template %q: pick one from the list", templateID)
	}
	return err
}

// Profiles returns the profiles servers declare and the active one.
func (a *ServersPage) Profiles() (ProfilesView, error) {
	active, names, err := a.h.Library.Profiles()
	return ProfilesView{Active: active, Names: names}, err
}

// SetProfile switches every server to a profile ("" for none); servers
// whose settings change restart with them.
func (a *ServersPage) SetProfile(name string) error {
	return a.h.Library.SetProfile(name)
}

// SetServerProfile stores one server's overrides for a profile (all empty
// removes them).
func (a *ServersPage) SetServerProfile(server, profile string, o host.ProfileOverride) error {
	return a.h.Library.SetServerProfile(server, profile, o)
}

// ServerProfiles returns one server's profile overrides.
func (a *ServersPage) ServerProfiles(server string) (map[string]host.ProfileOverride, error) {
	return a.h.Library.ServerProfiles(server)
}

// TestServer starts a configured server on its own (with the active profile,
// its secrets and its roots), runs initialize and tools/list, and reports
// each step's time and exactly what failed.
func (a *ServersPage) TestServer(name string) (host.TestReport, error) {
	s, ok := a.h.Servers.Get(name)
	if !ok {
		return host.TestReport{}, fmt.Errorf("no server named %q (built-in servers run inside the app and need no test)", name)
	}
	return a.h.Servers.Test(cmp.Or(a.wailsContext(), context.Background()), s)
}

// ServerForm returns a server's entry for the edit form; "" gives the
// blank form of a new server.
func (a *ServersPage) ServerForm(name string) (ServerFormView, error) {
	v := ServerFormView{Transport: string(host.TransportStdio), Enabled: true, Args: []string{},
		Env: []KeyValueView{}, Headers: []KeyValueView{}, IncludeTools: []string{}, ExcludeTools: []string{}, ConfigPath: a.dir.Config(), JSON: "{\n  \"command\": \"\"\n}"}
	if name == "" {
		return v, nil
	}
	s, ok := a.h.Servers.Get(name)
	if !ok {
		return v, fmt.Errorf("%w %q; it was removed or renamed: reload the Servers page", host.ErrNoServer, name)
	}
	base, err := host.EntryJSON(s)
	if err != nil {
		return v, err
	}
	v.Name, v.Transport, v.Command, v.Cwd, v.EnvFile, v.URL = s.Name, string(s.Transport), s.Command, s.Cwd, s.EnvFile, s.URL
	if s.Args != nil {
		v.Args = s.Args
	}
	v.Env, v.Headers = keyValues(s.Env), keyValues(s.Headers)
	v.StartupTimeoutMs = float64(s.StartupTimeout) / float64(time.Millisecond)
	v.ToolTimeoutMs = float64(s.ToolTimeout) / float64(time.Millisecond)
	v.Enabled, v.JSON, v.Base = !s.Disabled, base, base
	v.IncludeTools, v.ExcludeTools = append([]string{}, s.IncludeTools...), append([]string{}, s.ExcludeTools...)
	return v, nil
}

// CheckServerForm validates a form as SaveServerForm would, without
// saving (the form shows the problems under their fields as one types).
func (a *ServersPage) CheckServerForm(old string, form ServerFormView) ([]FieldProblemView, error) {
	e, probs := a.edit(old, form)
	if len(probs) > 0 {
		return probs, nil
	}
	probs, err := problemsOf(a.h.Servers.Check(e))
	if len(probs) > 0 || err != nil {
		return probs, err
	}
	for _, p := range e.Warnings() {
		probs = append(probs, FieldProblemView{Field: p.Path, Message: p.Message, Warning: true})
	}
	return probs, nil
}

// SaveServerForm adds (old "") or replaces a server from the form, restarts
// it and returns how it runs (see host.SaveServer).
func (a *ServersPage) SaveServerForm(old string, form ServerFormView) (ServerSaveView, error) {
	e, probs := a.edit(old, form)
	if len(probs) > 0 {
		return ServerSaveView{Problems: probs}, nil
	}
	return a.save(e)
}

// SaveServerJSON adds or replaces a server from "Edit as JSON" text;
// problems carry line:column in text.
func (a *ServersPage) SaveServerJSON(old, name, text, base string) (ServerSaveView, error) {
	s, err := host.ParseEntry(name, text)
	if err != nil {
		probs, err := problemsOf(err)
		return ServerSaveView{Problems: probs}, err
	}
	return a.save(host.ServerEdit{Old: old, Base: base, Server: s})
}

func (a *ServersPage) save(e host.ServerEdit) (ServerSaveView, error) {
	ctx, cancel := context.WithTimeout(a.quit, SaveWait)
	defer cancel()
	res, err := a.h.Servers.Save(ctx, e)
	if err != nil {
		probs, err := problemsOf(err)
		return ServerSaveView{Problems: probs}, err
	}
	v := a.statusView(res.Status)
	v.Seq = a.seq.Load()
	return ServerSaveView{Saved: true, Server: v, Tools: res.Tools, UnknownTools: append([]string{}, res.UnknownTools...)}, nil
}

// edit makes the host's edit of a form: the entry as loaded (Base) with
// the form's fields over it, secret values apart. Problems only the form
// can have (a variable twice) come back at once.
func (a *ServersPage) edit(old string, f ServerFormView) (host.ServerEdit, []FieldProblemView) {
	e := host.ServerEdit{Old: old, Base: f.Base, Secrets: map[string]string{}}
	s := host.Server{}
	if old != "" && f.Base != "" {
		if loaded, err := host.ParseEntry(old, f.Base); err == nil {
			s = loaded
		}
	}
	s.Name, s.Transport, s.Disabled = f.Name, host.Transport(f.Transport), !f.Enabled
	s.StartupTimeout = time.Duration(f.StartupTimeoutMs * float64(time.Millisecond))
	s.ToolTimeout = time.Duration(f.ToolTimeoutMs * float64(time.Millisecond))
	s.IncludeTools, s.ExcludeTools = toolNames(f.IncludeTools), toolNames(f.ExcludeTools)
	var probs []FieldProblemView
	if s.Transport == host.TransportStdio {
		s.Command, s.Args, s.Cwd, s.EnvFile, s.URL, s.Headers = f.Command, slices.Clone(f.Args), f.Cwd, f.EnvFile, "", nil
		s.Env, probs = rows("env", "variable", f.Env, e.Secrets)
	} else {
		s.Command, s.Args, s.Cwd, s.Env, s.EnvFile, s.URL = "", nil, "", nil, "", f.URL
		s.Headers, probs = rows("headers", "header", f.Headers, e.Secrets)
	}
	e.Server = s
	return e, probs
}

// OpenConfigFile opens config.json in the desktop's editor for JSON
// files (created first when missing) and returns its path.
func (a *ServersPage) OpenConfigFile() (string, error) {
	path, err := a.h.Servers.ConfigFile()
	if err != nil {
		return path, err
	}
	return path, openInEditor(path)
}

// ServerLogEntries returns the last lines of a server's log; a minLevel
// (debug … emergency) keeps only MCP log messages at that level or above,
// "" keeps everything, stderr included.
func (a *ServersPage) ServerLogEntries(name, minLevel string, lines int) ([]host.LogEntry, error) {
	return a.h.ServerLogs.Entries(name, minLevel, lines)
}

// SetServerLogLevel asks a server for MCP log messages at level and above
// (logging/setLevel, one of serverlog.Levels); it holds until the app quits, across restarts.
func (a *ServersPage) SetServerLogLevel(name, level string) error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.ServerLogs.SetLevel(ctx, name, level)
}

// ServerOAuth returns a configured server's OAuth client settings.
func (a *ServersPage) ServerOAuth(name string) (OAuthView, error) {
	s, ok := a.h.Servers.Get(name)
	if !ok {
		return OAuthView{}, fmt.Errorf("no server named %q (built-in servers need no login)", name)
	}
	v := OAuthView{Scopes: []string{}, Remote: s.Transport != host.TransportStdio}
	if o := s.OAuth; o != nil {
		v.ClientID, v.HasSecret, v.RedirectPort = o.ClientID, o.ClientSecret != "", o.RedirectPort
		v.Scopes = append(v.Scopes, o.Scopes...)
	}
	return v, nil
}

// SetServerOAuth saves a server's OAuth client settings (all empty removes
// the entry: Switchboard then registers itself); a new secret goes to the
// keyring. A problem comes back naming its JSON path.
func (a *ServersPage) SetServerOAuth(name string, v OAuthView) error {
	var scopes []string
	for _, s := range v.Scopes {
		if s = strings.TrimSpace(s); s != "" {
			scopes = append(scopes, s)
		}
	}
	e := host.OAuthEdit{Secret: v.ClientSecret, KeepSecret: !v.RemoveSecret}
	keepsSecret := v.ClientSecret != "" || v.HasSecret && !v.RemoveSecret
	if id := strings.TrimSpace(v.ClientID); id != "" || keepsSecret || v.RedirectPort != 0 || len(scopes) > 0 {
		e.OAuth = &host.OAuth{ClientID: id, RedirectPort: v.RedirectPort, Scopes: scopes}
	}
	return a.h.Servers.SetOAuth(name, e)
}

// Servers lists every configured server with its status.
func (a *ServersPage) Servers() ([]ServerView, error) {
	seq := a.seq.Load()
	sts := a.h.Servers.Status()
	out := make([]ServerView, 0, len(sts))
	for _, st := range sts {
		v := a.statusView(st)
		v.Seq = seq
		out = append(out, v)
	}
	return out, nil
}

// RestartServer stops and starts one server.
func (a *ServersPage) RestartServer(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return a.h.Servers.Restart(ctx, name)
}

// LoginServer logs in to a remote server that needs it (state
// "needs-login"): it opens the authorization page in the browser, waits for
// the redirect back, keeps the tokens in the keyring, and returns the server
// once it has started again with them.
func (a *ServersPage) LoginServer(name string) (ServerView, error) {
	ctx, cancel := context.WithCancel(cmp.Or(a.wailsContext(), context.Background()))
	defer cancel()
	show := func(u string) { a.emitEvent(EventServerLogin, LoginView{Name: name, URL: u}) }
	st, err := a.h.Servers.Login(ctx, name, show)
	if st.State == "" {
		return ServerView{}, err
	}
	v := a.statusView(st)
	v.Seq = a.seq.Load()
	return v, err
}

// CancelLogin ends the login of a server that waits for the browser (the
// Cancel beside "Logging in…"): LoginServer then fails with "login
// cancelled". It reports whether one was under way.
func (a *ServersPage) CancelLogin(name string) bool { return a.h.Servers.CancelLogin(name) }

// SetServerEnabled enables or disables a server and saves the choice.
func (a *ServersPage) SetServerEnabled(name string, enabled bool) error {
	return a.h.Servers.SetEnabled(name, enabled)
}

// RemoveServer deletes a server from the config (the UI confirms first);
// with deleteSecrets its keyring entries go too (ServerSecrets lists them).
func (a *ServersPage) RemoveServer(name string, deleteSecrets bool) error {
	return a.h.Servers.RemoveWith(name, deleteSecrets)
}

// ServerSecrets lists the keyring entries removing the server would
// delete, for the remove confirmation's checkbox.
func (a *ServersPage) ServerSecrets(name string) ([]string, error) {
	names, err := a.h.Servers.SecretsOf(name)
	if names == nil {
		names = []string{}
	}
	return names, err
}

// RefusedSecrets lists the ${secret:NAME} references of a server that are
// refused at start until granted (they came with an import, a registry
// entry or a bundle and are not its own).
func (a *ServersPage) RefusedSecrets(name string) ([]string, error) {
	return a.h.Servers.Refused(name)
}

// GrantSecret lets a server use a keyring entry that is not its own.
func (a *ServersPage) GrantSecret(name, server string) error {
	return a.h.Secrets.Grant(name, server)
}

// LooksSecret says whether an env variable's (header: a header's) value
// looks like a credential, by the rule an import follows, so the form can
// propose the keyring.
func (a *ServersPage) LooksSecret(name, value string, header bool) bool {
	return a.h.Servers.LooksSecret(name, value, header)
}

// ServerLog returns the last lines a server wrote to stderr, for the live
// log on the Servers page.
func (a *ServersPage) ServerLog(name string, lines int) ([]string, error) {
	return a.h.ServerLogs.Lines(name, lines)
}

// SetServerRoots chooses the folders a server is offered as its MCP roots:
// "auto" (the folders its arguments name, else the workspace),
// "configured", "workspace", "both", "none", or "list" with folders.
func (a *ServersPage) SetServerRoots(name, mode string, folders []string) error {
	return a.h.Servers.SetRoots(name, mode, folders)
}

// ServerSkills lists a server's skills (the skills extension) for its
// Details: name, description, size and whether the chats have it on. None
// is read.
func (a *ServersPage) ServerSkills(server string) (host.ServerSkills, error) {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.Skills.Server(ctx, server)
}

// SetSkillOn switches a server's skill on or off for every chat.
func (a *ServersPage) SetSkillOn(server, skill string, on bool) error {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.Skills.SetOn(ctx, server, skill, on)
}

// OAuthView is a remote server's "oauth" entry as the OAuth client form
// under Details edits it.
type OAuthView struct {
	ClientID string `json:"clientId"`
	// ClientSecret is a new secret typed in the form ("" keeps the stored
	// one, see HasSecret); it is never sent to the window.
	ClientSecret string `json:"clientSecret"`
	// HasSecret: the entry holds a client secret (a ${secret:...} in the
	// keyring, or plaintext kept by choice).
	HasSecret bool `json:"hasSecret"`
	// RemoveSecret drops the stored secret (the client became public).
	RemoveSecret bool     `json:"removeSecret"`
	RedirectPort int      `json:"redirectPort"` // 0: any free port
	Scopes       []string `json:"scopes"`
	// Remote is false for a local server, which does not log in.
	Remote bool `json:"remote"`
}

// skillsTimeout bounds listing a server's skills for its Details.
const skillsTimeout = 30 * time.Second

// toolNames is a list of tool names as the form gives it: each trimmed,
// the empty ones dropped, each once; nil when none is left.
func toolNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func inputOptions(opts []host.InputOption) []InputOption {
	out := make([]InputOption, 0, len(opts))
	for _, o := range opts {
		out = append(out, InputOption{Label: o.Label, Value: o.Value})
	}
	return out
}
