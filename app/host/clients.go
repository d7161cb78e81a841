package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/clients"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Clients are the other MCP apps on this computer (Claude Desktop, Claude
// Code, Cursor, VS Code, …) and their link to Switchboard: connect one
// (its file gets an entry running 'switchboard serve --client NAME'),
// move its own servers here, disconnect it, choose the servers it sees,
// and what 'serve' records of its use.
type Clients struct{ h *Host }

// ClientState is what Switchboard keeps of one connected app, in
// settings.clients of config.json.
type ClientState struct {
	// Files are the app's files Switchboard's entry is in (its user file,
	// project files), each with what connect did to it.
	Files []ConnectedFile `json:"files,omitempty"`
	// Path, Scope, Created and Moved are one connected file as config.json
	// kept it before Files; read as one of Files, and moved there at the
	// next change.
	Path    string        `json:"path,omitempty"`
	Scope   string        `json:"scope,omitempty"`
	Created bool          `json:"created,omitempty"`
	Moved   []MovedServer `json:"moved,omitempty"`
	// Servers are the servers the app sees; empty: all.
	Servers []string `json:"servers,omitempty"`
	// LastConnected is when 'serve --client' last started for it (RFC 3339).
	LastConnected string `json:"lastConnected,omitempty"`
	Calls         int64  `json:"calls,omitempty"`
}

// ConnectedFile is one app file Switchboard's entry is in.
type ConnectedFile struct {
	Path  string `json:"path"`
	Scope string `json:"scope,omitempty"` // user, local or project
	// Created: connect added the servers' container itself, so disconnect
	// takes it out again when it is empty.
	Created bool `json:"created,omitempty"`
	// Excluded: connect took Switchboard's entry out of the app's list of
	// the servers it never starts (Gemini CLI's "mcp.excluded"), so
	// disconnect puts it back.
	Excluded bool `json:"excluded,omitempty"`
	// Moved are the servers connect moved from this file to Switchboard:
	// disconnecting this file gives them back to it, and to no other.
	Moved []MovedServer `json:"moved,omitempty"`
}

// connected is every file of st, the one kept before Files included.
func (st ClientState) connected() []ConnectedFile {
	out := slices.Clone(st.Files)
	if st.Path != "" && !slices.ContainsFunc(out, func(f ConnectedFile) bool { return f.Path == st.Path }) {
		out = append(out, ConnectedFile{Path: st.Path, Scope: st.Scope, Created: st.Created, Moved: st.Moved})
	}
	return out
}

// file is st's record of the file at path (only its Path when there is none).
func (st ClientState) file(path string) ConnectedFile {
	for _, f := range st.connected() {
		if f.Path == path {
			return f
		}
	}
	return ConnectedFile{Path: path}
}

// withFile is st with f's record in place of the one of its path; keep
// false drops it (the file was disconnected).
func (st ClientState) withFile(f ConnectedFile, keep bool) ClientState {
	files := slices.DeleteFunc(st.connected(), func(c ConnectedFile) bool { return c.Path == f.Path })
	if keep {
		files = append(files, f)
	}
	st.Files = files
	st.Path, st.Scope, st.Created, st.Moved = "", "", false, nil
	return st
}

// MovedServer is one server moved from an app's file.
type MovedServer struct {
	Name string `json:"name"`         // in the app's file
	As   string `json:"as,omitempty"` // in Switchboard
	// Text is the entry as the file had it, each secret that went to the
	// keyring replaced by its ${secret:NAME} reference.
	Text string `json:"text"`
	// Secrets are the keyring names Text refers to.
	Secrets []string `json:"secrets,omitempty"`
	// Slot is where it was in the file, so disconnect puts it back there
	// (none for one moved by an older version: it goes at the end).
	Slot clients.Slot `json:"slot,omitzero"`
}

var clientsSection = config.Section[map[string]ClientState]{Key: "clients"}

// List is every known app with its files on this computer (project
// files under workDir, "" for none), whether it is connected, how many
// servers of its own it runs, and what serve recorded.
func (c *Clients) List(ctx context.Context, workDir string) ([]ClientApp, error) {
	states, err := c.states()
	if err != nil {
		return nil, err
	}
	env := clientEnv(workDir)
	attached := c.h.Shared.Attached()
	var out []ClientApp
	for _, a := range config.ClientApps() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out = append(out, c.view(a, env, states[a.Name], attached))
	}
	return out, nil
}

// Get is one app as List shows it.
func (c *Clients) Get(ctx context.Context, name, workDir string) (ClientApp, error) {
	a, ok := config.ClientAppNamed(name)
	if !ok {
		return ClientApp{}, unknownClient(name)
	}
	states, err := c.states()
	if err != nil {
		return ClientApp{}, err
	}
	return c.view(a, clientEnv(workDir), states[name], c.h.Shared.Attached()), ctx.Err()
}

// view is one app: its files as they are now, what Switchboard keeps of
// it, and its sessions attached to this Switchboard now (their calls
// are added to the count kept when they detach).
func (c *Clients) view(a config.ClientApp, env config.Env, st ClientState, attached []SharedApp) ClientApp {
	v := ClientApp{Name: a.Name, Title: a.Title, Servers: st.Servers, LastConnected: st.LastConnected, Calls: st.Calls}
	for _, s := range attached {
		if s.Name == a.Name {
			v.Attached++
			v.Calls += int64(s.Calls)
		}
	}
	for _, f := range st.connected() {
		for _, m := range f.Moved {
			v.Moved = append(v.Moved, m.Name)
		}
	}
	for _, f := range a.Files(env) {
		data, err := clients.ReadFile(f.Path)
		if data == nil && err == nil {
			continue
		}
		fv := ClientFileView{Path: f.Path, Scope: f.Scope, ReadOnly: f.ReadOnly}
		if err == nil {
			var d *clients.Doc
			d, err = clients.Read(f, data)
			if err == nil {
				ss, _ := d.Servers()
				for _, s := range ss {
					if s.Name != clients.EntryName {
						fv.Servers++
					}
				}
				if e, ok := d.Connected(); ok {
					fv.Connected = true
					if broken := brokenEntry(e); broken != "" {
						fv.Broken = broken
					}
				}
			}
		}
		if err != nil {
			fv.Problem = err.Error()
		}
		v.Files = append(v.Files, fv)
		v.Found = true
		v.OwnServers += fv.Servers
		if fv.Connected {
			v.Connected = true
			v.Broken = cmpString(v.Broken, fv.Broken)
		}
	}
	if v.Found {
		v.Running = clients.Running(a.Processes)
	}
	return v
}

func cmpString(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// brokenEntry says why Switchboard's entry cannot start ("" when it can).
func brokenEntry(e clients.Server) string {
	if e.Command == "" {
		return ""
	}
	if filepath.IsAbs(e.Command) {
		if _, err := os.Stat(e.Command); err != nil {
			return fmt.Sprintf("it runs %s, which is not there any more; Repair points it at this installation", e.Command)
		}
		return ""
	}
	if _, err := exec.LookPath(e.Command); err != nil {
		return fmt.Sprintf("it runs %s, which is not on PATH; Repair points it at this installation", e.Command)
	}
	return ""
}

// Preview is what Connect would change, written nowhere.
func (c *Clients) Preview(ctx context.Context, req ClientConnect) (ClientChange, error) {
	req.DryRun = true
	return c.Connect(ctx, req)
}

// Connect adds Switchboard's entry to the app's file (user scope unless
// req.Project), and with req.Move moves the app's own servers into
// Switchboard first (as ServerFiles.Import does: secrets to the keyring) and
// out of its file. The rest of the file stays byte for byte (an app's list
// of the servers it may start, Gemini CLI's "mcp.allowed", gets
// Switchboard's entry too); the write is atomic and keeps a backup without
// the moved secrets, and the file as it was before Switchboard first
// changed it (clients.OriginalSuffix). Connecting again changes nothing
// (an entry that runs another binary is repaired).
func (c *Clients) Connect(ctx context.Context, req ClientConnect) (ClientChange, error) {
	a, f, err := clientFile(req.Name, req.Project)
	if err != nil {
		return ClientChange{}, err
	}
	ch := ClientChange{Name: a.Name, Title: a.Title, Path: f.Path, Scope: f.Scope}
	data, err := clients.ReadFile(f.Path)
	if err != nil {
		return ch, err
	}
	doc, err := clients.Read(f, data)
	if err != nil {
		return ch, err
	}
	entry, err := c.entry(a.Name)
	if err != nil {
		return ch, err
	}
	ch.Command = strings.Join(append([]string{entry.Command}, entry.Args...), " ")
	if len(req.Servers) > 0 {
		if err := c.checkServers(req.Servers); err != nil {
			return ch, err
		}
	}
	created, excluded := !doc.HasContainer(), doc.Excluded(clients.EntryName)
	mv := moveResult{out: data, backup: data}
	if req.Move {
		if mv, err = c.move(ctx, doc, req, &ch); err != nil {
			return ch, err
		}
		if doc, err = clients.Read(f, mv.out); err != nil {
			return ch, err
		}
	}
	out, err := doc.Add(entry)
	if err != nil {
		return ch, err
	}
	ch.Diff = lineDiff(string(data), string(out))
	ch.Changed = !bytes.Equal(out, data)
	ch.Warnings = clientWarnings(a, f, entry, ch.Changed, len(mv.moved) > 0)
	if req.DryRun {
		return ch, nil
	}
	if ch.Changed {
		if err := clients.WriteFile(f.Path, out, mv.backup); err != nil {
			return ch, err
		}
		if data != nil {
			ch.Backup = f.Path + clients.BackupSuffix
		}
		// A copy kept by an earlier connect still has the secrets that
		// moved now: they leave it too.
		if err := clients.ScrubOriginal(f.Path, mv.scrub); err != nil {
			return ch, err
		}
	}
	return ch, c.record(a.Name, req.Servers, ConnectedFile{Path: f.Path, Scope: f.Scope, Created: created, Excluded: excluded, Moved: mv.moved})
}

// record adds what a connect did to f's file to config.json.
func (c *Clients) record(app string, servers []string, f ConnectedFile) error {
	return c.h.edit(func(cfg *config.Config) error {
		return clientsSection.Edit(cfg, func(m *map[string]ClientState) error {
			if *m == nil {
				*m = map[string]ClientState{}
			}
			st := (*m)[app]
			cf := st.file(f.Path)
			cf.Scope = f.Scope
			cf.Created = cf.Created || f.Created
			cf.Excluded = cf.Excluded || f.Excluded
			cf.Moved = append(cf.Moved, f.Moved...)
			st = st.withFile(cf, true)
			if servers != nil {
				st.Servers = servers
			}
			(*m)[app] = st
			return nil
		})
	})
}

// moveResult is what move did: the file without the moved servers, what
// moved (each with where it was), and the file as it was with the moved
// secrets taken out, for the backups.
type moveResult struct {
	out, backup []byte
	moved       []MovedServer
	secrets     []secretMove
}

// scrub takes the moved secrets out of a copy of the file.
func (mv moveResult) scrub(data []byte) []byte {
	text := string(data)
	for _, m := range mv.secrets {
		if m.value != "" {
			text = replaceSecret(text, m.value, "${secret:"+m.name+"}")
		}
	}
	return []byte(text)
}

// movePlan is one of the app's servers to move: the server it is the
// same as in Switchboard already ("" for none).
type movePlan struct {
	s  clients.Server
	as string
}

// move imports doc's servers (Switchboard's entry aside) and returns the
// file without them, what moved, and the backup with their secrets taken
// out. What only the app can start (Goose's built-in extensions, a Zed
// extension's server) stays in its file and is not imported.
func (c *Clients) move(ctx context.Context, doc *clients.Doc, req ClientConnect, ch *ClientChange) (moveResult, error) {
	servers, err := doc.Servers()
	if err != nil {
		return moveResult{}, err
	}
	cfg, err := c.h.readConfig()
	if err != nil {
		return moveResult{}, err
	}
	var plans []movePlan
	var differs []string
	var names []string // the servers to import
	for _, s := range servers {
		if s.Name == clients.EntryName {
			continue
		}
		if s.AppOnly != "" {
			ch.Skipped = append(ch.Skipped, fmt.Sprintf("%s: stays in the app's file: %s", s.Name, s.AppOnly))
			continue
		}
		same := slices.IndexFunc(cfg.Servers, func(x Server) bool {
			return x.Command == s.Command && slices.Equal(x.Args, s.Args) && x.URL == s.URL
		})
		if same >= 0 {
			cur := cfg.Servers[same]
			if envDiffers(cur.Env, s.Env) {
				switch req.EnvDiffers {
				case "keep":
				case "import":
					same = -1
				default:
					differs = append(differs, fmt.Sprintf("%s (like %s)", s.Name, cur.Name))
					continue
				}
			}
			if same >= 0 {
				plans = append(plans, movePlan{s: s, as: cur.Name})
				ch.Skipped = append(ch.Skipped, fmt.Sprintf("%s: already in Switchboard as %s", s.Name, cur.Name))
				continue
			}
		}
		plans = append(plans, movePlan{s: s})
		names = append(names, s.Name)
	}
	if len(differs) > 0 {
		return moveResult{}, &ClientEnvError{Servers: differs}
	}
	im, err := c.importMoved(ctx, doc, req, names, cfg)
	if err != nil {
		return moveResult{}, err
	}
	return takeMoved(doc, plans, im, ch)
}

// takeMoved takes the servers that moved out of doc's file, each with
// where it was, so a disconnect puts it back there.
func takeMoved(doc *clients.Doc, plans []movePlan, im movedImport, ch *ClientChange) (moveResult, error) {
	mv := moveResult{out: doc.Data, backup: doc.Data, secrets: im.moves}
	for _, p := range plans {
		if p.as == "" && !im.imported[p.s.Name] {
			// Not a server Switchboard can run as the app does (an entry
			// in error, ${workspaceFolder}): it stays the app's.
			ch.Skipped = append(ch.Skipped, fmt.Sprintf("%s: stays in the app's file: %s", p.s.Name, cmpString(im.stays[p.s.Name], "Switchboard cannot run it")))
			continue
		}
		nd, err := clients.Read(doc.File, mv.out)
		if err != nil {
			return moveResult{}, err
		}
		out, slot, err := nd.Take(p.s.Name)
		if err != nil {
			return moveResult{}, err
		}
		ms := MovedServer{Name: p.s.Name, As: cmpString(p.as, cmpString(im.renamed[p.s.Name], p.s.Name)), Text: p.s.Text, Slot: slot}
		mv.backup = ms.redact(im.moves, mv.backup)
		mv.moved = append(mv.moved, ms)
		mv.out = out
		ch.Moved = append(ch.Moved, p.s.Name)
	}
	return mv, nil
}

// movedImport is what importMoved did: the servers imported, the name each
// renamed one took, why each left out stays in the app's file, and the
// secrets that went to the keyring.
type movedImport struct {
	imported map[string]bool
	renamed  map[string]string
	stays    map[string]string
	moves    []secretMove
}

// importMoved imports the servers names of the app's file doc, read as an
// import reads it (every field of the app's format: Gemini's httpUrl, cwd
// and excludeTools…); first as a preview, to leave out what Switchboard
// cannot run as the app does. A name already in use in cfg is imported
// under a new one, never over another server.
func (c *Clients) importMoved(ctx context.Context, doc *clients.Doc, req ClientConnect, names []string, cfg *config.Config) (movedImport, error) {
	im := movedImport{imported: map[string]bool{}, renamed: map[string]string{}, stays: map[string]string{}}
	if len(names) == 0 {
		return im, nil
	}
	imp := ImportRequest{Name: doc.File.Path, Path: doc.File.Path, Data: doc.Data, Only: names, Inputs: req.Inputs, Plaintext: req.Plaintext, DryRun: true}
	res, err := c.h.ServerFiles.Import(ctx, imp)
	if err == nil {
		inPlan := map[string]bool{}
		for _, it := range res.Plan.Items {
			inPlan[it.Name] = true
			switch unresolved := it.Incoming.UnresolvedVariables(); {
			case it.Outcome == config.Invalid:
				im.stays[it.Name] = fmt.Sprintf("Switchboard cannot run it (see 'switchboard servers import %s')", doc.File.Path)
			case len(unresolved) > 0:
				im.stays[it.Name] = fmt.Sprintf("it uses %s, which only the app gives a value", cmpString(variableRef.FindString(unresolved[0].Message), "a variable"))
			}
		}
		// Only what the real import takes has a resolution: one for a
		// server left out would name no server of its plan.
		names = slices.DeleteFunc(names, func(n string) bool { return im.stays[n] != "" || !inPlan[n] })
		imp.Resolutions = map[string]Resolution{}
		for _, n := range names {
			if _, taken := cfg.Lookup(n); taken {
				imp.Resolutions[n] = config.Rename
			}
		}
		if !req.DryRun && len(names) > 0 {
			imp.Only, imp.DryRun = names, false
			res, err = c.h.ServerFiles.Import(ctx, imp)
		}
	}
	if missing, ok := errors.AsType[*MissingInputError](err); ok {
		return im, &ClientInputError{Path: doc.File.Path, App: clients.Title(doc.File.Style), Missing: missing}
	}
	if err != nil {
		return im, fmt.Errorf("moving %s's servers: %w", doc.File.Path, err)
	}
	for _, it := range res.Plan.Items {
		if it.Outcome == config.Invalid || !slices.Contains(names, it.Name) {
			continue
		}
		im.imported[it.Name] = true
		if it.Resolve(imp.Resolutions) == config.Rename {
			im.renamed[it.Name] = it.RenameTo
		}
	}
	for _, m := range res.moves {
		im.moves = append(im.moves, secretMove{server: m.Server, name: m.Name, value: m.Value()})
	}
	return im, nil
}

// ClientInputError is a move of servers that use VS Code's ${input:ID}
// placeholders with no value given: VS Code asks for each when it starts
// the server, Switchboard needs it once (Inputs). Nothing was moved.
type ClientInputError struct {
	Path    string
	App     string // the app's title
	Missing *MissingInputError
}

// Needs says which values are missing, without what to do about it.
func (e *ClientInputError) Needs() string {
	return fmt.Sprintf("moving %s's servers: %s", e.Path, e.Missing.Needs("its servers need"))
}

func (e *ClientInputError) Error() string {
	return e.Needs() + ": replace the placeholder in the file with its value, then move them again (or connect without moving them)"
}

// Unwrap returns the *MissingInputError (ErrMissingInput).
func (e *ClientInputError) Unwrap() error { return e.Missing }

// variableRef is a ${…} placeholder in a message; Continue's and GitHub
// Actions' ${{ secrets.NAME }} whole.
var variableRef = regexp.MustCompile(`\$\{\{[^}]*\}\}|\$\{[^}]+\}`)

type secretMove struct{ server, name, value string }

// redact puts the ${secret:NAME} reference in place of each of the
// server's secrets that moved to the keyring, in its text (and in the
// comment on its last line) and in the file's backup (returned).
func (ms *MovedServer) redact(moves []secretMove, backup []byte) []byte {
	for _, m := range moves {
		if m.server != ms.Name || m.value == "" {
			continue
		}
		ref := "${secret:" + m.name + "}"
		ms.Text = replaceSecret(ms.Text, m.value, ref)
		ms.Slot.Trail = replaceSecret(ms.Slot.Trail, m.value, ref)
		backup = []byte(replaceSecret(string(backup), m.value, ref))
		ms.Secrets = append(ms.Secrets, m.name)
	}
	return backup
}

// replaceSecret replaces a secret's value in a file's text, written as
// it is or escaped as JSON writes it.
func replaceSecret(text, value, ref string) string {
	text = strings.ReplaceAll(text, value, ref)
	if q, _ := json.Marshal(value); len(q) > 2 {
		text = strings.ReplaceAll(text, string(q[1:len(q)-1]), ref)
	}
	return text
}

func envDiffers(cur, app map[string]string) bool {
	if len(cur) != len(app) {
		return true
	}
	for k, v := range app {
		cv, ok := cur[k]
		if !ok {
			return true
		}
		if cv != v && !strings.HasPrefix(cv, "${secret:") {
			return true
		}
	}
	return false
}

// Disconnect takes Switchboard's entry out of the app's file and puts
// back the servers connect moved, each where it was (so a file nobody
// changed meanwhile is the very bytes it was before connect), with their
// secrets read back from the keyring when req.WithSecrets (both front
// doors ask for that by default: they return to the user's own file they
// came from, as the app had them); else those values are left empty (the
// keyring keeps them). What the app changed in the file meanwhile stays.
func (c *Clients) Disconnect(ctx context.Context, req ClientDisconnect) (ClientChange, error) {
	a, ok := config.ClientAppNamed(req.Name)
	if !ok {
		return ClientChange{}, unknownClient(req.Name)
	}
	states, err := c.states()
	if err != nil {
		return ClientChange{}, err
	}
	st := states[a.Name]
	_, f, err := clientFile(req.Name, req.Project)
	if err != nil {
		return ClientChange{}, err
	}
	if req.Project == "" {
		// The user-level file connected (user or local scope), when it is
		// not the one connect would pick now.
		for _, cand := range a.Files(clientEnv("")) {
			if cand.Scope != "project" && slices.ContainsFunc(st.connected(), func(c ConnectedFile) bool { return c.Path == cand.Path && c.Scope == cand.Scope }) {
				f = cand
				break
			}
		}
	}
	cf := st.file(f.Path)
	ch := ClientChange{Name: a.Name, Title: a.Title, Path: f.Path, Scope: f.Scope}
	data, err := clients.ReadFile(f.Path)
	if err != nil {
		return ch, err
	}
	doc, err := clients.Read(f, data)
	if err != nil {
		return ch, err
	}
	out, err := doc.Remove(clients.EntryName, cf.Created && len(cf.Moved) == 0)
	if err == nil && cf.Excluded {
		out, err = reread(f, out, func(d *clients.Doc) ([]byte, error) { return d.Exclude(clients.EntryName) })
	}
	if err == nil {
		out, err = c.putBack(f, out, cf.Moved, req, &ch)
	}
	if err != nil {
		return ch, err
	}
	ch.Diff = lineDiff(string(data), string(out))
	ch.Changed = !bytes.Equal(out, data)
	if ch.Changed && clients.Running(a.Processes) {
		ch.Warnings = append(ch.Warnings, a.Title+" is running: restart it to see the change")
	}
	if req.DryRun {
		return ch, nil
	}
	if ch.Changed {
		if err := clients.WriteFile(f.Path, out, data); err != nil {
			return ch, err
		}
		ch.Backup = f.Path + clients.BackupSuffix
	}
	return ch, c.h.edit(func(cfg *config.Config) error {
		return clientsSection.Edit(cfg, func(m *map[string]ClientState) error {
			if *m == nil {
				return nil
			}
			(*m)[a.Name] = (*m)[a.Name].withFile(ConnectedFile{Path: f.Path}, false)
			return nil
		})
	})
}

// reread applies edit to the document out is.
func reread(f config.ClientFile, out []byte, edit func(d *clients.Doc) ([]byte, error)) ([]byte, error) {
	d, err := clients.Read(f, out)
	if err != nil {
		return nil, err
	}
	return edit(d)
}

// putBack returns the moved servers to the file out: the last moved
// first, each before the entry that followed it then, so every one finds
// its neighbour; one moved by an older version (no slot) goes at the end,
// in the order they moved. ch.Moved names them in that order too.
func (c *Clients) putBack(f config.ClientFile, out []byte, moved []MovedServer, req ClientDisconnect, ch *ClientChange) ([]byte, error) {
	order := make([]MovedServer, 0, len(moved))
	for i := len(moved) - 1; i >= 0; i-- {
		if moved[i].Slot.Taken {
			order = append(order, moved[i])
		}
	}
	for _, m := range moved {
		if !m.Slot.Taken {
			order = append(order, m)
		}
	}
	returned := map[string]bool{}
	for _, m := range order {
		nd, err := clients.Read(f, out)
		if err != nil {
			return nil, err
		}
		if nd.Has(m.Name) {
			continue // the app has one of that name again: its own wins
		}
		text, trail, err := c.withSecrets(m, f.Path, req, ch)
		if err != nil {
			return nil, err
		}
		slot := m.Slot
		slot.Trail = trail
		if out, err = nd.Put(m.Name, text, slot); err != nil {
			return nil, err
		}
		returned[m.Name] = true
	}
	for _, m := range moved {
		if returned[m.Name] {
			ch.Moved = append(ch.Moved, m.Name)
		}
	}
	return out, nil
}

// withSecrets is a moved server's text (and last line's comment) with
// each ${secret:NAME} it moved with written back as its value from the
// keyring; empty when req says so, or when the keyring no longer has it
// (with a warning saying which).
func (c *Clients) withSecrets(m MovedServer, path string, req ClientDisconnect, ch *ClientChange) (string, string, error) {
	text, trail := m.Text, m.Slot.Trail
	for _, name := range m.Secrets {
		ref := "${secret:" + name + "}"
		v := ""
		switch {
		case !req.WithSecrets:
			ch.Warnings = append(ch.Warnings, fmt.Sprintf("%s returned without its secret (%s is left empty; the keyring keeps it): fill it in in the file", m.Name, name))
		default:
			var err error
			v, err = c.h.store.Get(name)
			if errors.Is(err, secrets.ErrNotFound) {
				ch.Warnings = append(ch.Warnings, fmt.Sprintf("%s returned without its secret (%s is no longer in the keyring): fill it in in the file", m.Name, name))
				break
			}
			if err != nil {
				return "", "", fmt.Errorf("returning %s to %s: %w; or disconnect without writing the secrets back (their values left empty)", m.Name, path, err)
			}
		}
		text = strings.ReplaceAll(text, ref, jsonEscape(v))
		trail = strings.ReplaceAll(trail, ref, v)
	}
	return text, trail, nil
}

// jsonEscape is v as it goes inside a quoted string of JSON, TOML
// (basic strings) or YAML (double-quoted).
func jsonEscape(v string) string {
	q, _ := json.Marshal(v)
	return string(q[1 : len(q)-1])
}

// SetServers chooses the servers an app sees (none: all of them).
func (c *Clients) SetServers(name string, servers []string) error {
	if _, ok := config.ClientAppNamed(name); !ok {
		return unknownClient(name)
	}
	if err := c.checkServers(servers); err != nil {
		return err
	}
	return c.h.edit(func(cfg *config.Config) error {
		return clientsSection.Edit(cfg, func(m *map[string]ClientState) error {
			if *m == nil {
				*m = map[string]ClientState{}
			}
			st := (*m)[name]
			st.Servers = slices.Clone(servers)
			(*m)[name] = st
			return nil
		})
	})
}

func (c *Clients) checkServers(names []string) error {
	cfg, err := c.h.readConfig()
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, ok := cfg.Lookup(n); !ok {
			return fmt.Errorf("%w %q; 'switchboard servers list' shows their names", ErrNoServer, n)
		}
	}
	return nil
}

// Serving is called by 'serve --client NAME' as it starts: it records
// the time and returns the servers that app sees (nil: all).
func (c *Clients) Serving(name string) ([]string, error) {
	if _, ok := config.ClientAppNamed(name); !ok {
		return nil, unknownClient(name)
	}
	var servers []string
	err := c.h.edit(func(cfg *config.Config) error {
		return clientsSection.Edit(cfg, func(m *map[string]ClientState) error {
			if *m == nil {
				*m = map[string]ClientState{}
			}
			st := (*m)[name]
			st.LastConnected = time.Now().UTC().Format(time.RFC3339)
			servers = st.Servers
			(*m)[name] = st
			return nil
		})
	})
	return servers, err
}

// AddCalls adds n tool calls to what an app made through 'serve'.
func (c *Clients) AddCalls(name string, n int64) error {
	if n == 0 {
		return nil
	}
	return c.h.edit(func(cfg *config.Config) error {
		return clientsSection.Edit(cfg, func(m *map[string]ClientState) error {
			if *m == nil {
				*m = map[string]ClientState{}
			}
			st := (*m)[name]
			st.Calls += n
			(*m)[name] = st
			return nil
		})
	})
}

func (c *Clients) states() (map[string]ClientState, error) {
	cfg, err := c.h.readConfig()
	if err != nil {
		return nil, err
	}
	m, err := clientsSection.Get(cfg)
	if m == nil {
		m = map[string]ClientState{}
	}
	return m, err
}

// entry is the command an app runs: this installation's serve, naming
// the app, with --data-dir when it is not the default one.
func (c *Clients) entry(name string) (clients.Entry, error) {
	exe, err := SelfCommand()
	if err != nil {
		return clients.Entry{}, err
	}
	args := []string{"serve", "--client", name}
	if def, err := os.UserConfigDir(); err != nil || filepath.Join(def, "switchboard") != string(c.h.dir) {
		args = append(args, "--data-dir", string(c.h.dir))
	}
	return clients.Entry{Command: exe, Args: args}, nil
}

// SelfCommand is the path apps run Switchboard by, chosen to survive an
// upgrade of the package: $APPIMAGE for an AppImage (the file the user
// keeps, not its temporary mount); else a 'switchboard' on PATH that is
// this executable (/usr/bin/switchboard, Homebrew's bin link, not the
// versioned Cellar path it resolves to); else this executable's path.
// SWITCHBOARD_COMMAND overrides all of them.
func SelfCommand() (string, error) {
	if p := os.Getenv("SWITCHBOARD_COMMAND"); p != "" {
		return p, nil
	}
	if p := os.Getenv("APPIMAGE"); p != "" {
		return p, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding this program's path for the app's entry: %w", err)
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		real = exe
	}
	if p, err := exec.LookPath("switchboard"); err == nil && filepath.IsAbs(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil && r == real {
			return p, nil
		}
	}
	return exe, nil
}

// clientFile is the file connect writes for the app: its user file, or
// with project its project file.
func clientFile(name, project string) (config.ClientApp, config.ClientFile, error) {
	a, ok := config.ClientAppNamed(name)
	if !ok {
		return a, config.ClientFile{}, unknownClient(name)
	}
	scope := "user"
	if project != "" {
		scope = "project"
		abs, err := filepath.Abs(project)
		if err != nil {
			return a, config.ClientFile{}, err
		}
		project = abs
	}
	var first *config.ClientFile
	for _, f := range a.Files(clientEnv(project)) {
		if f.Scope != scope || f.ReadOnly {
			continue
		}
		if first == nil {
			first = &f
		}
		if _, err := os.Stat(f.Path); err == nil {
			return a, f, nil
		}
	}
	if first == nil {
		return a, config.ClientFile{}, fmt.Errorf("%s keeps no servers in a project's folder: connect it without --project", a.Title)
	}
	return a, *first, nil
}

func clientEnv(workDir string) config.Env {
	env := config.SystemEnv()
	env.WorkDir = workDir
	return env
}

func unknownClient(name string) error {
	var names []string
	for _, a := range config.ClientApps() {
		names = append(names, a.Name)
	}
	return fmt.Errorf("%w %q; the apps are: %s", ErrNoClient, name, strings.Join(names, ", "))
}

// clientWarnings are what the user must know after a change.
func clientWarnings(a config.ClientApp, f config.ClientFile, e clients.Entry, changed, moved bool) []string {
	var out []string
	if changed && clients.Running(a.Processes) {
		if a.Rewrites {
			out = append(out, a.Title+" is running and rewrites its file: quit it before connecting, or connect again after it quits")
		} else {
			out = append(out, a.Title+" is running: restart it to see the change")
		}
	}
	if f.Scope == "project" {
		out = append(out, fmt.Sprintf("%s is a project file, often kept in git: it now names %s, a path on this computer only", f.Path, e.Command))
	}
	if moved && a.Name == "claude-code" { // its permission rules name tools mcp__SERVER__TOOL
		out = append(out, "rules that allowed the moved servers' tools (mcp__github__… in Claude Code) now need to name Switchboard's entry: mcp__switchboard__github__…")
	}
	return out
}

// lineDiff is a short unified-style diff of two texts: the changed lines
// with two lines of context.
func lineDiff(a, b string) string {
	if a == b {
		return ""
	}
	al, bl := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	var out strings.Builder
	from := max(p-2, 0)
	fmt.Fprintf(&out, "@@ line %d @@\n", from+1)
	for _, l := range al[from:p] {
		out.WriteString("  " + strings.TrimSuffix(l, "\n") + "\n")
	}
	for _, l := range al[p : len(al)-s] {
		out.WriteString("- " + strings.TrimSuffix(l, "\n") + "\n")
	}
	for _, l := range bl[p : len(bl)-s] {
		out.WriteString("+ " + strings.TrimSuffix(l, "\n") + "\n")
	}
	for _, l := range al[len(al)-s : min(len(al)-s+2, len(al))] {
		if l != "" {
			out.WriteString("  " + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	return out.String()
}
