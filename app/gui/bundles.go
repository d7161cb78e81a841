package gui

import (
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/switchboard-app/switchboard/app/host"
)

// Bundles installs MCP Bundles (.mcpb) from the Servers page: a file
// dropped on it or opened with Switchboard is inspected (its form), then
// installed with the user's answers (host.Bundles).
//
// A dropped file waits in the bundles' incoming folder under its token
// until it is installed, or its form is closed (Discard), or it turns out
// not to be installable (removed at once); what a window leaves there is
// removed when it starts and when it closes (ClearIncoming).
type Bundles struct{ *core }

// InspectFile reads a dropped bundle (its bytes, base64) and returns its
// form. fileName names it in messages.
func (a *Bundles) InspectFile(fileName, dataBase64 string) (BundleForm, error) {
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return BundleForm{}, fmt.Errorf("%s could not be read: %w", fileName, err)
	}
	token, err := a.h.Bundles.Receive(fileName, data)
	if err != nil {
		return BundleForm{}, err
	}
	f, err := a.inspectAs(token, filepath.Join(a.h.Bundles.Incoming(), token), fileName)
	if err != nil || !f.installable() {
		a.discard(token) // nothing will install it
	}
	return f, err
}

// InspectPath returns the form of a bundle opened with Switchboard.
func (a *Bundles) InspectPath(path string) (BundleForm, error) {
	if !strings.EqualFold(filepath.Ext(path), ".mcpb") && !strings.EqualFold(filepath.Ext(path), ".dxt") {
		return BundleForm{}, fmt.Errorf("%s is not an MCP Bundle (.mcpb)", path)
	}
	return a.inspect(path, path)
}

// DiscardBundle forgets the form of token, which will not be installed
// (the form was closed, or another took its place): a dropped file is
// removed. A file opened with Switchboard is the user's and stays.
func (a *Bundles) DiscardBundle(token string) error {
	a.discard(token)
	return nil
}

func (a *Bundles) discard(token string) {
	inspections.forget(a.core, token)
	if host.IncomingToken(token) {
		if err := a.h.Bundles.Discard(token); err != nil {
			slog.Warn("bundle: a dropped file is left", "token", token, "err", err)
		}
	}
}

// clearIncoming removes the dropped files a window left (at its start,
// those of an earlier run; at its close, its own).
func (a *Bundles) clearIncoming() {
	if err := a.h.Bundles.ClearIncoming(); err != nil {
		slog.Warn("bundle: dropped files are left", "dir", a.h.Bundles.Incoming(), "err", err)
	}
}

// PreviewBundle is what installing token with the form's values would run: the
// command line (sensitive values masked) and the names of the environment
// variables it sets, or which required values are missing, or why it
// cannot be installed. Nothing is written.
func (a *Bundles) PreviewBundle(token string, values map[string][]string) (BundlePreview, error) {
	in, err := a.inspection(token)
	if err != nil {
		return BundlePreview{}, err
	}
	if p := refusal(in); p != "" {
		return BundlePreview{Env: []string{}, Problem: p}, nil
	}
	run, err := a.h.Bundles.Preview(in, filledIn(values))
	switch {
	case errors.Is(err, host.ErrBundleRequired):
		return BundlePreview{Env: []string{}, Missing: true}, nil
	case err != nil:
		return BundlePreview{Env: []string{}, Problem: host.Plain(err)}, nil
	}
	return BundlePreview{Command: run.Command, Env: append([]string{}, run.Env...)}, nil
}

// inspection is token's inspection: kept from its form, else read again.
func (a *Bundles) inspection(token string) (*host.Inspection, error) {
	if in := inspections.get(a.core, token); in != nil {
		return in, nil
	}
	path, err := a.path(token)
	if err != nil {
		return nil, err
	}
	in, err := a.h.Bundles.Inspect(a.life, path)
	if err != nil {
		return nil, err
	}
	inspections.put(a.core, token, in)
	return in, nil
}

// Install installs the bundle of token with the form's answers and
// returns the server's name. An empty sensitive answer keeps the value
// the installed copy has.
func (a *Bundles) Install(token string, values map[string][]string) (string, error) {
	return a.install(token, values, a.h.Bundles.Install)
}

// InstallChanged is Install once the user saw the form's Changes and
// confirmed them.
func (a *Bundles) InstallChanged(token string, values map[string][]string) (string, error) {
	return a.install(token, values, a.h.Bundles.InstallChanged)
}

func (a *Bundles) install(token string, values map[string][]string, install func(context.Context, string, map[string][]string) (string, error)) (string, error) {
	path, err := a.path(token)
	if err != nil {
		return "", err
	}
	name, err := install(a.life, path, filledIn(values))
	if err == nil {
		a.discard(token)
	}
	return name, err
}

// filledIn is the form's values without its empty fields (an option left
// empty takes its default, a sensitive one keeps the installed copy's).
func filledIn(values map[string][]string) map[string][]string {
	v := map[string][]string{}
	for k, x := range values {
		var keep []string
		for _, s := range x {
			if s != "" {
				keep = append(keep, s)
			}
		}
		if len(keep) > 0 {
			v[k] = keep
		}
	}
	return v
}

// path is the file of token: one in the incoming folder, or a bundle
// opened with Switchboard (an absolute .mcpb path).
func (a *Bundles) path(token string) (string, error) {
	if filepath.IsAbs(token) {
		if !strings.EqualFold(filepath.Ext(token), ".mcpb") && !strings.EqualFold(filepath.Ext(token), ".dxt") {
			return "", fmt.Errorf("%s is not an MCP Bundle (.mcpb)", token)
		}
		return token, nil
	}
	if !host.IncomingToken(token) {
		return "", fmt.Errorf("unknown bundle %q: drop the file again", token)
	}
	return filepath.Join(a.h.Bundles.Incoming(), token), nil
}

// inspect is the form of the bundle at path, named token.
func (a *Bundles) inspect(token, path string) (BundleForm, error) {
	return a.inspectAs(token, path, path)
}

// refusal says why in cannot be installed ("" when it can): its archive
// (an unsafe entry, a missing entry point), its signature, this computer.
func refusal(in *host.Inspection) string {
	switch {
	case in.Refused != nil:
		return in.Refused.Error()
	case in.Bundle.Signature.Err() != nil:
		return in.Bundle.Signature.Err().Error()
	case in.Incompatible != nil:
		return in.Incompatible.Error()
	}
	return ""
}

// inspectAs is inspect for a file the user knows as name (a dropped one).
func (a *Bundles) inspectAs(token, path, name string) (BundleForm, error) {
	in, err := a.h.Bundles.InspectNamed(a.life, path, name)
	if err != nil {
		return BundleForm{}, err
	}
	inspections.put(a.core, token, in)
	b := in.Bundle
	m := b.Manifest
	f := BundleForm{
		Token: token, Name: m.ServerName(), DisplayName: m.DisplayName, Version: m.Version, Author: m.Author.Name,
		Description: m.Description, Signature: b.Signature.Summary(), Signed: b.Signature.Status,
		Installed: in.Installed, Options: []BundleOption{}, Tools: []string{}, ToolInfo: []BundleTool{}, Changes: []BundleChange{},
		Warnings: append([]string{}, in.Warnings...),
	}
	if in.Refused != nil {
		f.Refused = in.Refused.Error()
	}
	for _, c := range in.Changes {
		f.Changes = append(f.Changes, BundleChange{What: c.What, Was: c.Was, Now: c.Now})
	}
	if f.DisplayName == "" {
		f.DisplayName = m.Name // the manifest's, as written ("My MCP Extension")
	}
	if in.Incompatible != nil {
		f.Incompatible = in.Incompatible.Error()
	}
	if data, err := b.File(m.Icon); err == nil && len(data) > 0 {
		f.Icon = dataURL(m.Icon, data)
	}
	for _, t := range m.Tools {
		f.Tools = append(f.Tools, t.Name)
		f.ToolInfo = append(f.ToolInfo, BundleTool{Name: t.Name, Description: t.Description})
	}
	for _, o := range m.UserConfig {
		v := BundleOption{Key: o.Key, Type: o.Type, Title: o.Title, Description: o.Description, Required: o.Required,
			Multiple: o.Multiple, Sensitive: o.Sensitive, Values: in.Values[o.Key]}
		if v.Values == nil {
			v.Values = []string{}
		}
		if o.Min != nil {
			v.HasMin, v.Min = true, *o.Min
		}
		if o.Max != nil {
			v.HasMax, v.Max = true, *o.Max
		}
		for _, k := range in.Kept {
			v.Kept = v.Kept || k == o.Key
		}
		f.Options = append(f.Options, v)
	}
	return f, nil
}

// Choose asks for a folder ("directory") or a file ("file") with the system
// dialog, several when multiple; none when the user cancels.
func (a *Bundles) Choose(kind string, multiple bool) ([]string, error) {
	ctx := a.wailsContext()
	if ctx == nil {
		return nil, errors.New("no window to show the dialog in: type the path instead")
	}
	opts := wruntime.OpenDialogOptions{Title: "Choose", CanCreateDirectories: true}
	switch {
	case kind == host.BundleDirectory:
		dir, err := wruntime.OpenDirectoryDialog(ctx, opts)
		if err != nil || dir == "" {
			return []string{}, err
		}
		return []string{dir}, nil
	case multiple:
		files, err := wruntime.OpenMultipleFilesDialog(ctx, opts)
		if files == nil {
			files = []string{}
		}
		return files, err
	}
	f, err := wruntime.OpenFileDialog(ctx, opts)
	if err != nil || f == "" {
		return []string{}, err
	}
	return []string{f}, nil
}

// BundleForm is a bundle looked at before installing, and the form its
// user_config makes.
type BundleForm struct {
	// Token names the bundle for Install (a file the window handed over).
	Token       string `json:"token"`
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Version     string `json:"version"`
	Author      string `json:"author"`
	Description string `json:"description"`
	Icon        string `json:"icon"` // a data: URL, or ""
	// Signature says who signed it, or that nobody did; Signed is its status
	// (unsigned, signed, self-signed, untrusted, invalid).
	Signature string `json:"signature"`
	Signed    string `json:"signed"`
	// Incompatible says why it cannot be installed here ("" when it can).
	Incompatible string `json:"incompatible"`
	// Refused says why it cannot be installed at all: an unsafe archive
	// entry (zip-slip, a link), an entry point it lacks ("" when it can).
	Refused string `json:"refused"`
	// Warnings are what will not work yet though it installs (the program
	// its server runs is not installed).
	Warnings []string `json:"warnings"`
	// Installed is the version already installed ("" for none).
	Installed string         `json:"installed"`
	Options   []BundleOption `json:"options"`
	Tools     []string       `json:"tools"` // the tools it declares, by name
	// ToolInfo are the same tools with what the manifest says of each.
	ToolInfo []BundleTool `json:"toolInfo"`
	// Changes are how it differs from the installed copy in who made,
	// signed or runs it: Install refuses them, InstallChanged (the
	// dialog's explicit confirm) takes them.
	Changes []BundleChange `json:"changes"`
}

// installable reports whether the form's Install can succeed (its values
// apart): nothing refuses it.
func (f BundleForm) installable() bool {
	return f.Refused == "" && f.Incompatible == "" && f.Signed != "invalid"
}

// BundleTool is a tool a bundle's manifest declares.
type BundleTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// BundlePreview is what installing a bundle with the form's values would
// run, before anything is installed or started.
type BundlePreview struct {
	Command string   `json:"command"` // the command line, sensitive values masked
	Env     []string `json:"env"`     // the environment variables it sets, by name
	// Missing: a required value is not filled in yet.
	Missing bool `json:"missing"`
	// Problem says why it cannot be installed with these values ("" when
	// it can).
	Problem string `json:"problem"`
}

// BundleChange is one difference from the installed copy.
type BundleChange struct {
	What string `json:"what"` // version (an older one), author, signer or command
	Was  string `json:"was"`
	Now  string `json:"now"`
}

// BundleOption is one user_config field of the form.
type BundleOption struct {
	Key         string   `json:"key"`
	Type        string   `json:"type"` // string, number, boolean, directory, file
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Multiple    bool     `json:"multiple"`
	Sensitive   bool     `json:"sensitive"`
	HasMin      bool     `json:"hasMin"`
	Min         float64  `json:"min"`
	HasMax      bool     `json:"hasMax"`
	Max         float64  `json:"max"`
	Values      []string `json:"values"` // the default, or what the installed copy has
	// Kept: a sensitive value the installed copy keeps in the keyring;
	// left empty, it stays.
	Kept bool `json:"kept"`
}

// BundleInfoView is what a server's row shows of the bundle it came from.
type BundleInfoView struct {
	DisplayName string `json:"displayName"`
	Version     string `json:"version"`
	Author      string `json:"author"`
	Icon        string `json:"icon"`
	Signature   string `json:"signature"`
	Signed      string `json:"signed"`
}

// bundleView is what a server's row shows of its bundle (nil for others).
func bundleView(s host.Server) *BundleInfoView {
	in, ok := host.InstalledOf(s)
	if !ok {
		return nil
	}
	v := &BundleInfoView{DisplayName: cmp.Or(in.DisplayName, in.Name), Version: in.Version, Author: in.Author, Signature: in.Signature, Signed: in.Signed}
	if in.Icon != "" {
		p := filepath.Join(in.Dir, filepath.FromSlash(in.Icon))
		if rel, err := filepath.Rel(in.Dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			if data, err := os.ReadFile(p); err == nil && len(data) < 1<<20 {
				v.Icon = dataURL(in.Icon, data)
			}
		}
	}
	return v
}

func dataURL(name string, data []byte) string {
	mime := map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml", ".gif": "image/gif", ".webp": "image/webp"}[strings.ToLower(filepath.Ext(name))]
	if mime == "" {
		return ""
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// inspections keeps the inspections of the forms on screen, by window and
// token, so that a preview (each pause in typing) does not read the bundle
// again: a few, the oldest forgotten first.
var inspections inspectionCache

type inspectionCache struct {
	mu   sync.Mutex
	kept []keptInspection
}

type keptInspection struct {
	c     *core
	token string
	in    *host.Inspection
}

// maxInspections is how many forms' inspections are kept.
const maxInspections = 4

func (k *inspectionCache) get(c *core, token string) *host.Inspection {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, x := range k.kept {
		if x.c == c && x.token == token {
			return x.in
		}
	}
	return nil
}

func (k *inspectionCache) put(c *core, token string, in *host.Inspection) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.kept = slices.DeleteFunc(k.kept, func(x keptInspection) bool { return x.c == c && x.token == token })
	k.kept = append(k.kept, keptInspection{c, token, in})
	if len(k.kept) > maxInspections {
		k.kept = slices.Delete(k.kept, 0, len(k.kept)-maxInspections)
	}
}

func (k *inspectionCache) forget(c *core, token string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.kept = slices.DeleteFunc(k.kept, func(x keptInspection) bool { return x.c == c && x.token == token })
}
