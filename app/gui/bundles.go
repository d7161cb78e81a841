package gui

import (
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// Bundles installs MCP Bundles (.mcpb) from the Servers page: a file
// dropped on it or opened with Switchboard is inspected (its form), then
// installed with the user's answers (host.Bundles).
type Bundles struct{ *core }

// InspectFile reads a dropped bundle (its bytes, base64) and returns its
// form. fileName is only shown in messages.
func (a *Bundles) InspectFile(fileName, dataBase64 string) (BundleForm, error) {
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return BundleForm{}, fmt.Errorf("%s could not be read: %w", fileName, err)
	}
	token, err := a.h.Bundles.Receive(fileName, data)
	if err != nil {
		return BundleForm{}, err
	}
	return a.inspect(token, filepath.Join(a.h.Bundles.Incoming(), token))
}

// InspectPath returns the form of a bundle opened with Switchboard.
func (a *Bundles) InspectPath(path string) (BundleForm, error) {
	if !strings.EqualFold(filepath.Ext(path), ".mcpb") && !strings.EqualFold(filepath.Ext(path), ".dxt") {
		return BundleForm{}, fmt.Errorf("%s is not an MCP Bundle (.mcpb)", path)
	}
	return a.inspect(path, path)
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
	name, err := install(a.life, path, v)
	if err == nil && strings.HasPrefix(path, a.h.Bundles.Incoming()) {
		_ = os.Remove(path)
	}
	return name, err
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
	if filepath.Base(token) != token || !strings.HasSuffix(token, ".mcpb") {
		return "", fmt.Errorf("unknown bundle %q: drop the file again", token)
	}
	return filepath.Join(a.h.Bundles.Incoming(), token), nil
}

func (a *Bundles) inspect(token, path string) (BundleForm, error) {
	in, err := a.h.Bundles.Inspect(a.life, path)
	if err != nil {
		return BundleForm{}, err
	}
	b := in.Bundle
	m := b.Manifest
	f := BundleForm{
		Token: token, Name: m.Name, DisplayName: m.DisplayName, Version: m.Version, Author: m.Author.Name,
		Description: m.Description, Signature: b.Signature.Summary(), Signed: b.Signature.Status,
		Installed: in.Installed, Options: []BundleOption{}, Tools: []string{}, Changes: []BundleChange{},
	}
	for _, c := range in.Changes {
		f.Changes = append(f.Changes, BundleChange{What: c.What, Was: c.Was, Now: c.Now})
	}
	if f.DisplayName == "" {
		f.DisplayName = m.Name
	}
	if in.Incompatible != nil {
		f.Incompatible = in.Incompatible.Error()
	}
	if data, err := b.File(m.Icon); err == nil && len(data) > 0 {
		f.Icon = dataURL(m.Icon, data)
	}
	for _, t := range m.Tools {
		f.Tools = append(f.Tools, t.Name)
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
	// Installed is the version already installed ("" for none).
	Installed string         `json:"installed"`
	Options   []BundleOption `json:"options"`
	Tools     []string       `json:"tools"`
	// Changes are how it differs from the installed copy in who made,
	// signed or runs it: Install refuses them, InstallChanged (the
	// dialog's explicit confirm) takes them.
	Changes []BundleChange `json:"changes"`
}

// BundleChange is one difference from the installed copy.
type BundleChange struct {
	What string `json:"what"` // author, signer or command
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
	v := &BundleInfoView{DisplayName: in.DisplayName, Version: in.Version, Author: in.Author, Signature: in.Signature, Signed: in.Signed}
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
