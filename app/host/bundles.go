package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Bundles are the use cases of MCP Bundles (.mcpb): look at one before
// installing it, install (or reinstall, or update) it as a server named
// after its manifest, and remove it with its files and keyring entries.
// Both front doors call them: 'switchboard servers install FILE.mcpb' and
// the Servers page (drag and drop, a file opened with Switchboard).
type Bundles struct{ h *Host }

// bundleKey is the server entry's key that records what was installed:
// the bundle's identity, what its row shows, and the user's answers (the
// sensitive ones only as the names of their keyring entries).
const bundleKey = "bundle"

// Installed is what an installed bundle's entry records.
type Installed struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	DisplayName string `json:"displayName,omitempty"`
	Author      string `json:"author,omitempty"`
	Description string `json:"description,omitempty"`
	Icon        string `json:"icon,omitempty"` // a file in Dir
	Dir         string `json:"dir"`
	Signature   string `json:"signature"`             // Signature.Summary
	Signed      string `json:"signed"`                // Signature.Status
	Fingerprint string `json:"fingerprint,omitempty"` // the signing certificate's
	// Command is the manifest's command line as its author wrote it
	// (commandLine): a reinstall that changes it is another program.
	Command string            `json:"command,omitempty"`
	Values  bundle.Values     `json:"values,omitempty"`
	Secrets map[string]string `json:"secrets,omitempty"` // option key → keyring name
}

// InstalledOf reads what s records of its bundle, if it came from one.
func InstalledOf(s Server) (Installed, bool) {
	raw, ok := s.Extra[bundleKey]
	if !ok {
		return Installed{}, false
	}
	var in Installed
	if json.Unmarshal(raw, &in) != nil || in.Name == "" {
		return Installed{}, false
	}
	return in, true
}

// BundleDirectory is the type of a user_config option whose value is a
// folder (bundle.TypeDirectory): the window offers a folder dialog for it.
const BundleDirectory = bundle.TypeDirectory

// Root is where bundles are unpacked: <data dir>/bundles/<name>/<version>.
func (b *Bundles) Root() string { return filepath.Join(b.h.dir.String(), "bundles") }

// Inspection is a bundle looked at before installing: its manifest, who
// signed it, whether it runs here, and the form's starting values (the
// defaults, or what the user gave the installed copy).
type Inspection struct {
	Bundle *bundle.Bundle
	// Incompatible says why it cannot be installed here; nil when it can.
	Incompatible error
	// Values start the form: the installed copy's answers, else defaults.
	Values bundle.Values
	// Kept are the sensitive options whose value the installed copy keeps
	// in the keyring: left empty, they stay as they are.
	Kept []string
	// Installed is the version already installed ("" for none).
	Installed string
	// Changes are what installing it changes about who made, signed or
	// runs the installed copy (nil for a first install): Install refuses
	// them, InstallChanged takes them.
	Changes []BundleChange
}

// Inspect opens the bundle at path.
func (b *Bundles) Inspect(ctx context.Context, path string) (*Inspection, error) {
	bd, err := bundle.Open(path)
	if err != nil {
		return nil, err
	}
	m := bd.Manifest
	in := &Inspection{Bundle: bd, Incompatible: m.Compatible(ctx, ""), Values: bundle.Values{}}
	vars := bundle.UserVars("")
	for _, o := range m.UserConfig {
		if d := o.Defaults(vars); len(d) > 0 && !o.Sensitive {
			in.Values[o.Key] = d
		}
	}
	if s, ok := b.installed(m.Name); ok {
		if prev, ok := InstalledOf(s); ok {
			in.Installed = prev.Version
			in.Changes = bundleChanges(prev, s, bd)
			for k, v := range prev.Values {
				if _, ok := m.UserConfig.Lookup(k); ok {
					in.Values[k] = v
				}
			}
			for k := range prev.Secrets {
				if _, ok := m.UserConfig.Lookup(k); ok {
					in.Kept = append(in.Kept, k)
				}
			}
			slices.Sort(in.Kept)
		}
	}
	return in, nil
}

// Install installs the bundle at path with the user's values (sensitive
// ones go to the keyring, never to config.json or the bundle's folder). A
// bundle already installed under its name is replaced, keeping every
// value not given again; any other server of that name is left alone and
// the install refused. It returns the server's name.
//
// given are the user's answers to the manifest's user_config, by key (an
// option with multiple takes several). A bundle whose signature does not
// match it is refused (ErrBundleInvalidSignature), and so is a reinstall that changes the
// author, the signer or the command (a *BundleChangedError listing them):
// the user sees the difference and confirms with InstallChanged.
func (b *Bundles) Install(ctx context.Context, path string, given map[string][]string) (string, error) {
	return b.install(ctx, path, given, installHow{})
}

// InstallChanged is Install for a bundle whose differences from the
// installed copy (Inspection.Changes) the user saw and accepted. A new
// command is another program: its tools' pins are reset (each withheld
// until trusted again) and policies that let them run without asking are
// dropped.
func (b *Bundles) InstallChanged(ctx context.Context, path string, given map[string][]string) (string, error) {
	return b.install(ctx, path, given, installHow{acceptChanges: true})
}

// installHow is what an install may do besides a first install or a
// plain update.
type installHow struct {
	// fresh: only a first install (a registry's mcpb package: adding
	// never replaces a server, and the entry's name is not the bundle's).
	fresh bool
	// source names where a fresh bundle came from, for the refusal.
	source string
	// acceptChanges: the user accepted Inspection.Changes.
	acceptChanges bool
}

func (b *Bundles) install(ctx context.Context, path string, given bundle.Values, how installHow) (_ string, err error) {
	in, err := b.Inspect(ctx, path)
	if err != nil {
		return "", err
	}
	if in.Incompatible != nil {
		return "", in.Incompatible
	}
	bd := in.Bundle
	m := bd.Manifest
	if err := bd.Signature.Err(); err != nil {
		return "", err
	}
	if len(in.Changes) > 0 && !how.acceptChanges && !how.fresh {
		return "", &BundleChangedError{Name: m.Name, Changes: in.Changes}
	}
	var prev Installed
	id := secrets.NewID()
	if s, ok := b.installed(m.Name); ok {
		if secrets.ValidID(s.ID) {
			id = s.ID // an update is the same server: its entries stay its own
		}
		if how.fresh {
			return "", fmt.Errorf("%w: %s installs as %q, which is already a server; adding from the registry never replaces one: remove %q first, or update it from its own .mcpb file", ErrNameTaken, how.source, m.Name, m.Name)
		}
		var isBundle bool
		if prev, isBundle = InstalledOf(s); !isBundle {
			return "", fmt.Errorf("%w: %q is a server you added yourself; remove or rename it first", ErrNameTaken, m.Name)
		}
	}
	values := bundle.Values{}
	for k, v := range in.Values {
		values[k] = v
	}
	keep := &secrets.Keeper{Store: b.h.store, ID: id}
	// A refused install leaves nothing behind: the keyring entries it
	// made (not the installed copy's) and the files it unpacked (not the
	// installed copy's).
	unpacked := false
	var dir string
	defer func() {
		if err == nil {
			return
		}
		for _, n := range keep.Names {
			if !slices.Contains(slices.Collect(maps.Values(prev.Secrets)), n) {
				_ = b.h.store.Delete(n)
			}
		}
		switch {
		case unpacked && prev.Dir == "":
			_ = os.RemoveAll(filepath.Join(b.Root(), m.Name)) // nothing of this name was installed
		case dir != "" && dir != prev.Dir:
			_ = os.RemoveAll(dir)
		}
	}()
	secretNames := map[string]string{}
	for _, o := range m.UserConfig {
		v, ok := given[o.Key]
		if o.Sensitive {
			switch {
			case ok && len(v) > 0 && v[0] != "":
				ref, err := keep.Keep(o.Key, v[0])
				if err != nil {
					return "", err
				}
				values[o.Key] = []string{ref}
				secretNames[o.Key] = keep.Names[len(keep.Names)-1]
			case prev.Secrets[o.Key] != "":
				values[o.Key] = []string{"${secret:" + prev.Secrets[o.Key] + "}"}
				secretNames[o.Key] = prev.Secrets[o.Key]
			}
			continue
		}
		if ok {
			values[o.Key] = v
		}
	}
	// Anything given that the manifest does not have is refused by Check.
	for k, v := range given {
		if _, ok := m.UserConfig.Lookup(k); !ok {
			values[k] = v
		}
	}
	checked, err := m.Check(values, bundle.UserVars(""))
	if err != nil {
		return "", err
	}
	// The entry is built once before unpacking, where it will be, so that a
	// manifest refused for a reference it makes leaves no files behind.
	if _, err := m.Entry(bundle.UserVars(bundle.Dir(b.Root(), m.Name, m.Version)), checked); err != nil {
		return "", err
	}
	unpacked = true
	dir, err = bd.Unpack(b.Root())
	if err != nil {
		return "", err
	}
	s, err := m.Entry(bundle.UserVars(dir), checked)
	if err != nil {
		return "", err
	}
	rec := Installed{
		Name: m.Name, Version: m.Version, DisplayName: m.DisplayName, Author: m.Author.Name, Description: m.Description,
		Icon: m.Icon, Dir: dir, Signature: bd.Signature.Summary(), Signed: bd.Signature.Status,
		Fingerprint: bd.Signature.Fingerprint, Command: commandLine(m),
		Values: bundle.Values{}, Secrets: secretNames,
	}
	for k, v := range checked {
		if o, _ := m.UserConfig.Lookup(k); !o.Sensitive {
			rec.Values[k] = v
		}
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	s.Extra = map[string]json.RawMessage{bundleKey: raw}
	s.ID = keep.ID
	// Before the entry changes, so the new command never runs trusted.
	newCommand := slices.ContainsFunc(in.Changes, func(c BundleChange) bool { return c.What == "command" })
	if newCommand {
		if err := b.distrust(s.Name); err != nil {
			return "", fmt.Errorf("%s's tools could not be made to ask again, so its new command was not installed: %w", s.Name, err)
		}
	}
	err = b.h.edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(x Server) bool { return x.Name == s.Name })
		if i >= 0 && how.fresh {
			return fmt.Errorf("%w: %s installs as %q, which is already a server; remove it first", ErrNameTaken, how.source, s.Name)
		}
		if i >= 0 {
			if _, ok := InstalledOf(cfg.Servers[i]); !ok {
				return fmt.Errorf("%w: %q is a server you added yourself; remove or rename it first", ErrNameTaken, s.Name)
			}
			s.Disabled = cfg.Servers[i].Disabled
			cfg.Servers[i] = s
		} else {
			if err := nameFree(cfg, s.Name, ""); err != nil {
				return err
			}
			cfg.Servers = append(cfg.Servers, s)
		}
		if newCommand {
			if err := dropAllow(cfg, s.Name); err != nil {
				return err
			}
		}
		if len(keep.Names) > 0 {
			return secrets.Index(cfg, true, keep.Names...)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if prev.Dir != "" && prev.Dir != dir {
		_ = os.RemoveAll(prev.Dir) // the version it replaced
	}
	return s.Name, nil
}

// installed is config.json's entry of name as saved now (the CLI's host
// has not loaded the servers).
func (b *Bundles) installed(name string) (Server, bool) {
	cfg, err := b.h.readConfig()
	if err != nil {
		return Server{}, false
	}
	return cfg.Lookup(name)
}

// forget deletes what an installed bundle left besides its entry: the
// unpacked files (only inside Root) and the keyring entries of its
// sensitive values.
func (b *Bundles) forget(s Server) error {
	in, ok := InstalledOf(s)
	if !ok {
		return nil
	}
	var errs []error
	root := b.Root()
	if rel, err := filepath.Rel(root, in.Dir); err == nil && rel != "." && !filepath.IsAbs(rel) && rel[0] != '.' {
		errs = append(errs, os.RemoveAll(filepath.Dir(in.Dir))) // <root>/<name>: every version
	}
	for _, name := range in.Secrets {
		if err := b.h.store.Delete(name); err != nil && !errors.Is(err, secrets.ErrNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Incoming is where bundles handed to the window (dropped, not opened
// from a file) wait to be installed.
func (b *Bundles) Incoming() string { return filepath.Join(b.Root(), ".incoming") }

// Receive keeps a dropped bundle's bytes in Incoming under a random name,
// bounded by the bundle size limit, and returns that name (fileName is only
// for messages).
func (b *Bundles) Receive(fileName string, data []byte) (string, error) {
	if int64(len(data)) > bundle.MaxBundleBytes {
		return "", fmt.Errorf("%s is larger than %d MB", fileName, bundle.MaxBundleBytes>>20)
	}
	if err := os.MkdirAll(b.Incoming(), 0o700); err != nil {
		return "", err
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	token := hex.EncodeToString(rnd[:]) + ".mcpb"
	return token, os.WriteFile(filepath.Join(b.Incoming(), token), data, 0o600)
}
