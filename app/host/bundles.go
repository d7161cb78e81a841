package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	Command string `json:"command,omitempty"`
	// Values are the answers the user gave (not the defaults, so that a
	// new version's default applies); sensitive ones never.
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

// BundleDirectory and BundleFile are the types of a user_config option
// whose value is a folder or a file (bundle.TypeDirectory, TypeFile): the
// window offers a dialog for it, the CLI makes a relative one absolute.
const (
	BundleDirectory = bundle.TypeDirectory
	BundleFile      = bundle.TypeFile
)

// Root is where bundles are unpacked: <data dir>/bundles/<name>/<version>.
func (b *Bundles) Root() string { return filepath.Join(b.h.dir.String(), "bundles") }

// Inspection is a bundle looked at before installing: its manifest, who
// signed it, whether it runs here, and the form's starting values (the
// defaults, or what the user gave the installed copy).
type Inspection struct {
	Bundle *bundle.Bundle
	// Incompatible says why it cannot be installed here; nil when it can.
	Incompatible error
	// Refused says why it cannot be installed anywhere (an unsafe archive
	// entry, an entry point it lacks: bundle.CheckArchive); nil when it can.
	Refused error
	// Warnings are what will not work yet though it installs (the program
	// its server runs is not installed).
	Warnings []string
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
	return b.InspectNamed(ctx, path, path)
}

// InspectNamed is Inspect for a file the user knows by another name (one
// dropped on the window, kept under a random name): messages name it name.
func (b *Bundles) InspectNamed(ctx context.Context, path, name string) (*Inspection, error) {
	bd, err := bundle.OpenNamed(path, name)
	if err != nil {
		return nil, err
	}
	m := bd.Manifest
	in := &Inspection{Bundle: bd, Incompatible: m.Compatible(ctx, ""), Refused: bd.CheckArchive(), Values: bundle.Values{}}
	if w := m.MissingCommand(""); w != "" {
		in.Warnings = append(in.Warnings, w)
	}
	vars := bundle.UserVars("")
	for _, o := range m.UserConfig {
		if d := o.Defaults(vars); len(d) > 0 && !o.Sensitive {
			in.Values[o.Key] = d
		}
	}
	prev, s, ok := b.previous(m.ServerName())
	if !ok {
		return in, nil
	}
	in.Installed = prev.Version
	in.Changes = bundleChanges(prev, s, bd)
	for k, v := range prev.Values {
		switch o, ok := m.UserConfig.Lookup(k); {
		case !ok:
		case o.Sensitive: // now sensitive: Install moves it to the keyring
			in.Kept = append(in.Kept, k)
		default:
			in.Values[k] = v
		}
	}
	for k := range prev.Secrets {
		if o, ok := m.UserConfig.Lookup(k); ok && o.Sensitive {
			in.Kept = append(in.Kept, k)
		}
	}
	slices.Sort(in.Kept)
	in.Kept = slices.Compact(in.Kept)
	return in, nil
}

// previous is what the installed copy of the bundle named name records,
// its answers only those the user gave: an older record also kept the
// defaults of its version as answers, which its manifest (in its folder)
// tells apart, so that this version's defaults apply.
func (b *Bundles) previous(name string) (Installed, Server, bool) {
	s, ok := b.installed(name)
	if !ok {
		return Installed{}, Server{}, false
	}
	prev, ok := InstalledOf(s)
	if !ok {
		return Installed{}, s, false
	}
	if !b.inRoot(prev.Dir) {
		return prev, s, true
	}
	raw, err := os.ReadFile(filepath.Join(prev.Dir, "manifest.json"))
	if err != nil {
		return prev, s, true
	}
	old, err := bundle.ParseManifest(raw)
	if err != nil {
		return prev, s, true
	}
	given := bundle.Values{}
	for k, v := range prev.Values {
		if !old.IsDefault(k, v, bundle.UserVars(prev.Dir)) {
			given[k] = v
		}
	}
	prev.Values = given
	return prev, s, true
}

// inRoot reports whether dir is a bundle's folder inside Root.
func (b *Bundles) inRoot(dir string) bool {
	rel, err := filepath.Rel(b.Root(), dir)
	return err == nil && rel != "." && !filepath.IsAbs(rel) && rel[0] != '.'
}

// Install installs the bundle at path with the user's values (sensitive
// ones go to the keyring, never to config.json or the bundle's folder). A
// bundle already installed under its name is replaced, keeping every
// answer not given again (a default is no answer: the new version's
// applies), moving to the keyring an answer kept in plaintext for an
// option the new version marks sensitive, and deleting the keyring
// entries of options it no longer has; any other server of that name is
// left alone and the install refused. One Inspection.Refused refuses is
// never unpacked. It returns the server's name (bundle.ServerName).
//
// given are the user's answers to the manifest's user_config, by key (an
// option with multiple takes several). A bundle whose signature does not
// match it is refused (ErrBundleInvalidSignature), and so is a reinstall that changes the
// author, the signer or the command (a *BundleChangedError listing them):
// the user sees the difference and confirms with InstallChanged. An older
// version than the installed one is such a change too ("version").
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
	if in.Refused != nil {
		return "", in.Refused
	}
	if in.Incompatible != nil {
		return "", in.Incompatible
	}
	bd := in.Bundle
	m := bd.Manifest
	name := m.ServerName()
	if err := bd.Signature.Err(); err != nil {
		return "", err
	}
	if len(in.Changes) > 0 && !how.acceptChanges && !how.fresh {
		return "", &BundleChangedError{Name: name, Changes: in.Changes}
	}
	id := secrets.NewID()
	prev, s, installed := b.previous(name)
	if s.Name != "" {
		if secrets.ValidID(s.ID) {
			id = s.ID // an update is the same server: its entries stay its own
		}
		if how.fresh {
			return "", fmt.Errorf("%w: %s installs as %q, which is already a server; adding from the registry never replaces one: remove %q first, or update it from its own .mcpb file", ErrNameTaken, how.source, name, name)
		}
		if !installed {
			return "", fmt.Errorf("%w: %q is a server you added yourself; remove or rename it first", ErrNameTaken, name)
		}
	}
	if err := oneSensitive(m, given); err != nil {
		return "", err
	}
	a := bundleAnswers(m, in, prev, given)
	values := a.values
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
			_ = os.RemoveAll(filepath.Join(b.Root(), name)) // nothing of this name was installed
		case dir != "" && dir != prev.Dir:
			_ = os.RemoveAll(dir)
		}
	}()
	// Sensitive values go to the keyring in the manifest's order; what the
	// installed copy keeps there stays.
	secretNames := map[string]string{}
	for _, o := range m.UserConfig {
		if plain, ok := a.toKeep[o.Key]; ok {
			ref, err := keep.Keep(o.Key, plain)
			if err != nil {
				return "", err
			}
			values[o.Key] = []string{ref}
			secretNames[o.Key] = keep.Names[len(keep.Names)-1]
		} else if n, ok := a.kept[o.Key]; ok {
			values[o.Key] = []string{"${secret:" + n + "}"}
			secretNames[o.Key] = n
		}
	}
	// The installed copy's keyring entries this version no longer uses (an
	// option it dropped, or no longer sensitive) go once it is installed.
	var dropped []string
	for k, n := range prev.Secrets {
		if secretNames[k] != n {
			dropped = append(dropped, n)
		}
	}
	checked, err := m.Check(values, bundle.UserVars(""))
	if err != nil {
		return "", err
	}
	// The entry is built once before unpacking, where it will be, so that a
	// manifest refused for a reference it makes leaves no files behind.
	if _, err := m.Entry(bundle.UserVars(bundle.Dir(b.Root(), name, m.Version)), checked); err != nil {
		return "", err
	}
	unpacked = true
	dir, err = bd.Unpack(b.Root())
	if err != nil {
		return "", err
	}
	entry, err := m.Entry(bundle.UserVars(dir), checked)
	if err != nil {
		return "", err
	}
	rec := Installed{
		Name: m.Name, Version: m.Version, DisplayName: m.DisplayName, Author: m.Author.Name, Description: m.Description,
		Icon: m.Icon, Dir: dir, Signature: bd.Signature.Summary(), Signed: bd.Signature.Status,
		Fingerprint: bd.Signature.Fingerprint, Command: commandLine(m),
		Values: bundle.Values{}, Secrets: secretNames,
	}
	for k, v := range checked { // the user's answers: a default is not one
		if o, _ := m.UserConfig.Lookup(k); !o.Sensitive && !m.IsDefault(k, v, bundle.UserVars(dir)) {
			rec.Values[k] = v
		}
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	entry.Extra = map[string]json.RawMessage{bundleKey: raw}
	entry.ID = keep.ID
	if err := b.save(entry, in, keep.Names, dropped, how); err != nil {
		return "", err
	}
	for _, n := range dropped {
		if err := b.h.store.Delete(n); err != nil && !errors.Is(err, secrets.ErrNotFound) {
			slog.Warn("bundle install: a keyring entry the new version no longer uses is left", "name", n, "err", err)
		}
	}
	if prev.Dir != "" && prev.Dir != dir {
		_ = os.RemoveAll(prev.Dir) // the version it replaced
	}
	return entry.Name, nil
}

// save writes an installed bundle's entry s into config.json, replacing
// the installed copy's, indexing the keyring entries it made (kept) and
// unindexing those it no longer uses (dropped). A new command is another
// program: before the entry changes its tools are made to ask again, so it
// never runs trusted, and the policies that let them run without asking
// are dropped.
func (b *Bundles) save(s Server, in *Inspection, kept, dropped []string, how installHow) error {
	newCommand := slices.ContainsFunc(in.Changes, func(c BundleChange) bool { return c.What == "command" })
	if newCommand {
		if err := b.distrust(s.Name); err != nil {
			return fmt.Errorf("%s's tools could not be made to ask again, so its new command was not installed: %w", s.Name, err)
		}
	}
	return b.h.edit(func(cfg *config.Config) error {
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
		if len(dropped) > 0 {
			if err := secrets.Index(cfg, false, dropped...); err != nil {
				return err
			}
		}
		if len(kept) > 0 {
			return secrets.Index(cfg, true, kept...)
		}
		return nil
	})
}

// bundleInputs are what an install (or its preview) gives the manifest's
// options, sensitive ones apart: never plaintext among the values.
type bundleInputs struct {
	values bundle.Values     // the inspection's (defaults, the installed copy's answers), given over them
	toKeep map[string]string // sensitive option → a value to keep in the keyring
	kept   map[string]string // sensitive option → the installed copy's keyring entry, which stays
}

// bundleAnswers merges given into the inspection's values. A sensitive
// value is kept in the keyring when given; else the installed copy's
// keyring entry stays; else an answer the installed copy kept in plaintext,
// for an option a new version marks sensitive, moves to the keyring.
func bundleAnswers(m bundle.Manifest, in *Inspection, prev Installed, given bundle.Values) bundleInputs {
	a := bundleInputs{values: maps.Clone(in.Values), toKeep: map[string]string{}, kept: map[string]string{}}
	if a.values == nil {
		a.values = bundle.Values{}
	}
	for _, o := range m.UserConfig {
		v, ok := given[o.Key]
		if !o.Sensitive {
			if ok {
				a.values[o.Key] = v
			}
			continue
		}
		delete(a.values, o.Key)
		switch old := prev.Values[o.Key]; {
		case ok && len(v) > 0 && v[0] != "":
			a.toKeep[o.Key] = v[0]
		case prev.Secrets[o.Key] != "":
			a.kept[o.Key] = prev.Secrets[o.Key]
		case len(old) > 0 && old[0] != "":
			a.toKeep[o.Key] = old[0]
		}
	}
	// Anything given that the manifest does not have is refused by Check.
	for k, v := range given {
		if _, ok := m.UserConfig.Lookup(k); !ok {
			a.values[k] = v
		}
	}
	return a
}

// oneSensitive refuses a sensitive option given more than one value, as
// Check refuses several for any single option: the keyring keeps one, and
// bundleAnswers takes sensitive values apart before Check sees them, so
// the others would be dropped without a word. The values are not named.
func oneSensitive(m bundle.Manifest, given bundle.Values) error {
	for _, o := range m.UserConfig {
		if v := given[o.Key]; o.Sensitive && len(v) > 1 {
			why := ""
			if o.Multiple { // the manifest says several, but a keyring entry holds one
				why = " (a sensitive setting is kept in the keyring, one value)"
			}
			return fmt.Errorf("%w: %s (%s) takes one value%s, got %d", bundle.ErrUserConfig, o.Title, o.Key, why, len(v))
		}
	}
	return nil
}

// BundleRun is what installing a bundle would run.
type BundleRun struct {
	Command string   // the command line, arguments quoted where needed
	Env     []string // the names of the environment variables it sets
}

// masked stands for a sensitive value in a preview.
const masked = "••••••"

// Preview is what Install would run with given (the form's answers), as
// Install builds it but writing nothing: the bundle's folder as it will
// be, sensitive values masked (the entry holds a keyring reference). An
// answer missing or wrong is the error (ErrBundleUserConfig).
func (b *Bundles) Preview(in *Inspection, given bundle.Values) (BundleRun, error) {
	m := in.Bundle.Manifest
	prev, _, _ := b.previous(m.ServerName())
	a := bundleAnswers(m, in, prev, given)
	for _, keys := range []map[string]string{a.toKeep, a.kept} {
		for k := range keys {
			a.values[k] = []string{masked}
		}
	}
	vars := bundle.UserVars(bundle.Dir(b.Root(), m.ServerName(), m.Version))
	checked, err := m.Check(a.values, vars)
	if err != nil {
		return BundleRun{}, err
	}
	s, err := m.Entry(vars, checked)
	if err != nil {
		return BundleRun{}, err
	}
	parts := []string{quoteArg(s.Command)}
	for _, x := range s.Args {
		parts = append(parts, quoteArg(x))
	}
	return BundleRun{Command: strings.Join(parts, " "), Env: slices.Sorted(maps.Keys(s.Env))}, nil
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
	if b.inRoot(in.Dir) {
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
// from a file) wait to be installed: each until it is installed, its form
// is closed or it cannot be installed (Discard), and all of them when the
// window starts or closes (ClearIncoming). Each may be up to 256 MB.
func (b *Bundles) Incoming() string { return filepath.Join(b.Root(), ".incoming") }

// Discard removes the bundle Receive kept as token, which will not be
// installed; one already gone is no error.
func (b *Bundles) Discard(token string) error {
	if !IncomingToken(token) {
		return fmt.Errorf("unknown bundle %q: drop the file again", token)
	}
	if err := os.Remove(filepath.Join(b.Incoming(), token)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// ClearIncoming removes every bundle waiting in Incoming: those an earlier
// run of the window left, and this one's when it closes.
func (b *Bundles) ClearIncoming() error { return os.RemoveAll(b.Incoming()) }

// IncomingToken reports whether token can name a bundle Receive kept: a
// plain file name ending in .mcpb, never a path.
func IncomingToken(token string) bool {
	return token != "" && filepath.Base(token) == token && !strings.HasPrefix(token, ".") && strings.HasSuffix(token, ".mcpb")
}

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
