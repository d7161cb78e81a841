package host

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
)

// TestCatalogAddsAnMCPBPackage: a registry entry whose package is an MCP
// Bundle is downloaded, checked against its fileSha256 and installed as a
// bundle; a wrong or missing checksum, a failed or oversize download
// installs nothing and leaves no download behind.
func TestCatalogAddsAnMCPBPackage(t *testing.T) {
	packed := bundletest.Pack(t, "echo-env")
	body, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	good := hex.EncodeToString(sum[:])
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/echo-env-1.2.0.mcpb" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(files.Close)
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	doc := func(name, url, sha string) string {
		shaField := ""
		if sha != "" {
			shaField = fmt.Sprintf(`"fileSha256": %q,`, sha)
		}
		return fmt.Sprintf(`{"name": "io.github.example/%s", "description": "Echo env as a bundle", "version": "1.2.0",
			"packages": [{"registryType": "mcpb", "identifier": %q, %s "version": "1.2.0", "transport": {"type": "stdio"}}]}`, name, url, shaField)
	}
	bundleURL := files.URL + "/echo-env-1.2.0.mcpb"
	reg.Add(doc("echo-bundle", bundleURL, good))
	reg.Add(doc("wrong-sum", bundleURL, strings.Repeat("ab", 32)))
	reg.Add(doc("no-sum", bundleURL, ""))
	reg.Add(doc("gone", files.URL+"/missing.mcpb", good))
	reg.Add(doc("elsewhere", "http://files.example.invalid/echo-env-1.2.0.mcpb", good))
	moved, err := mcpregistrytest.StartHostile(t.Context(), mcpregistrytest.Redirect)
	if err != nil {
		t.Fatal(err)
	}
	moved.Target = files.URL
	reg.Add(doc("moved", moved.URL+"/echo-env-1.2.0.mcpb", good))

	h := liveHost(t)
	c := h.MCPRegistry
	noDownloadLeft := func(t *testing.T) {
		t.Helper()
		left, _ := filepath.Glob(filepath.Join(h.Dir().String(), "download-*"))
		kept, _ := filepath.Glob(filepath.Join(h.Dir().String(), "registry-downloads", "*"))
		if left = append(left, kept...); len(left) > 0 {
			t.Fatalf("the download was left behind: %v", left)
		}
	}
	values := map[string]string{"api_key": "sk-test-REGISTRY-7"}
	for _, tc := range []struct {
		name, want string
		limit      int64
	}{
		{"io.github.example/wrong-sum", "its SHA-256 is " + good + ", not the registry's", 0},
		{"io.github.example/no-sum", "has no fileSha256 to check it by", 0},
		{"io.github.example/gone", "HTTP 404", 0},
		{"io.github.example/echo-bundle", fmt.Sprintf("stopped at the %d-byte download cap", len(body)-1), int64(len(body)) - 1},
		{"io.github.example/elsewhere", "refused plain http to files.example.invalid", 0},
		{"io.github.example/moved", "redirected to another origin (" + files.URL + ")", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.limit > 0 {
				old := MaxBundleDownload
				MaxBundleDownload = tc.limit
				t.Cleanup(func() { MaxBundleDownload = old })
			}
			if _, err := c.Add(t.Context(), RegistryPick{URL: reg.URL, Name: tc.name, Values: values}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
			cfg, err := h.readConfig()
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Servers) != 0 {
				t.Fatalf("installed %+v", cfg.Servers)
			}
			noDownloadLeft(t)
		})
	}

	added, err := c.Add(t.Context(), RegistryPick{URL: reg.URL, Name: "io.github.example/echo-bundle", Values: values})
	if err != nil {
		t.Fatal(err)
	}
	if added.Name != "echo-env" {
		t.Fatalf("named %q, want the bundle manifest's name", added.Name)
	}
	s, ok := h.Servers.Get("echo-env")
	if rec, installed := InstalledOf(s); !ok || !installed || rec.Version != "1.2.0" {
		t.Fatalf("not installed as a bundle: %+v", s)
	}
	if env, _ := shown(t, h); env["ECHO_API_KEY"] != secrets.Mask(values["api_key"]) {
		t.Fatalf("the server runs without the key given: %v", env)
	}
	noDownloadLeft(t)

	// Another registry entry whose bundle installs under the name of a
	// server already there (here the bundle just installed) is refused:
	// adding never replaces a server.
	reg.Add(doc("takeover", bundleURL, good))
	before, _ := os.ReadFile(filepath.Join(h.Dir().String(), "config.json"))
	if _, err := c.Add(t.Context(), RegistryPick{URL: reg.URL, Name: "io.github.example/takeover", Values: values}); !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), `installs as "echo-env"`) {
		t.Fatalf("takeover: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(h.Dir().String(), "config.json")); string(after) != string(before) {
		t.Errorf("config.json changed:\n%s", after)
	}
	noDownloadLeft(t)
}

// TestPreviewShowsWhatAddRuns: the preview is the entry Add makes, a
// secret shown masked and stored nowhere, and a refusal before Add.
func TestPreviewShowsWhatAddRuns(t *testing.T) {
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(`{"name": "io.github.ok/w", "description": "d", "version": "1.0.0",
		"packages": [{"registryType": "npm", "identifier": "@ok/w", "version": "1.0.0", "transport": {"type": "stdio"},
		"environmentVariables": [{"name": "API_KEY", "isSecret": true, "isRequired": true}]}]}`)
	reg.Add(`{"name": "io.github.evil/p", "description": "d", "version": "1.0.0",
		"packages": [{"registryType": "oci", "identifier": "ghcr.io/evil/p", "version": "1.0.0", "transport": {"type": "stdio"},
		"runtimeArguments": [{"type": "named", "name": "--privileged"}]}]}`)
	h := open(t)
	e, err := h.MCPRegistry.Preview(t.Context(), RegistryPick{URL: reg.URL, Name: "io.github.ok/w", Values: map[string]string{"API_KEY": "sk-do-not-store"}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Target() != "npx -y @ok/w@1.0.0" || e.Env["API_KEY"] != "••••••" {
		t.Errorf("preview %q env %v", e.Target(), e.Env)
	}
	if v, err := h.Secrets.Get("w.API_KEY"); err == nil || v != "" {
		t.Errorf("a preview stored the secret: %q", v)
	}
	if _, ok := h.Servers.Get("w"); ok {
		t.Error("a preview added the server")
	}
	if _, err := h.MCPRegistry.Preview(t.Context(), RegistryPick{URL: reg.URL, Name: "io.github.evil/p"}); !errors.Is(err, mcpregistry.ErrUnsafePackage) {
		t.Errorf("preview of a --privileged container: %v", err)
	}
}

// TestSearchShowsWhatAddOffers: a search's server carries what the doors
// show (its name, the entry name Add gives it, its options and asks), and
// its JSON is the registry's own entry.
func TestSearchShowsWhatAddOffers(t *testing.T) {
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(`{"name": "io.github.ok/w", "title": "W", "description": "d", "version": "1.0.0",
		"repository": {"url": "https://github.com/ok/w", "source": "github"},
		"packages": [{"registryType": "npm", "identifier": "@ok/w", "version": "1.0.0", "transport": {"type": "stdio"},
		"environmentVariables": [{"name": "API_KEY", "isSecret": true, "isRequired": true}]}]}`)
	h := open(t)
	l, err := h.MCPRegistry.Search(t.Context(), RegistrySearch{URL: reg.URL, Query: "w"})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(l.Servers, func(s RegistryServer) bool { return s.Name == "io.github.ok/w" })
	if l.Registry != reg.URL || l.Stale || i < 0 {
		t.Fatalf("search: %+v", l)
	}
	s := l.Servers[i]
	if s.Name != "io.github.ok/w" || s.Title != "W" || s.Repository != "https://github.com/ok/w" || s.EntryName != "w" ||
		len(s.Options) != 1 || s.Options[0].Kind != "npm" || len(s.Options[0].Asks) != 1 || s.Options[0].Asks[0].Key != "API_KEY" {
		t.Fatalf("server: %+v", s)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Server struct {
			Name     string `json:"name"`
			Packages []any  `json:"packages"`
		} `json:"server"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Server.Name != s.Name || len(doc.Server.Packages) != 1 {
		t.Fatalf("JSON %s is not the registry's entry (%v)", raw, err)
	}
}

// examplesRegistry serves mcpregistrytest.Examples and two servers whose
// names end alike (alice/notes, bob/notes).
func examplesRegistry(t *testing.T) *mcpregistrytest.Registry {
	t.Helper()
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range mcpregistrytest.Examples {
		reg.AddMeta(e.Doc, e.Meta)
	}
	for _, owner := range []string{"alice", "bob"} {
		reg.Add(fmt.Sprintf(`{"name": "io.github.%s/notes", "description": "%s's notes", "version": "1.0.0",
			"packages": [{"registryType": "npm", "identifier": "@%s/notes-mcp", "version": "1.0.0", "transport": {"type": "stdio"}}]}`, owner, owner, owner))
	}
	return reg
}

// TestRegistryAddTakesEveryInput: Add takes a value for every input, the
// optional ones and those with a default included, and refuses a key the
// server does not take; a name clash is solved with EntryName; a
// deprecated server is added with a warning, a deleted one refused.
func TestRegistryAddTakesEveryInput(t *testing.T) {
	reg := examplesRegistry(t)
	h := open(t)
	add := func(name string, values map[string]string, entryName string) (RegistryAdded, error) {
		return h.MCPRegistry.Add(t.Context(), RegistryPick{URL: reg.URL, Name: name, Values: values, EntryName: entryName})
	}
	target := func(name string) string {
		s, _ := h.Servers.Get(name)
		return s.Target()
	}

	if _, err := add("io.github.modelcontextprotocol/filesystem", map[string]string{"target_dir": "/home/me/proj"}, ""); err != nil {
		t.Fatal(err)
	}
	if got := target("filesystem"); got != "npx -y @modelcontextprotocol/server-filesystem@1.0.2 /home/me/proj" {
		t.Errorf("a value over a default: %s", got)
	}
	db := map[string]string{"DB_USERNAME": "u", "DB_PASSWORD": "pw-SECRET", "database_name": "mydb", "db_type": "postgres", "port": "5432"}
	if _, err := add("io.github.example/database-manager", db, ""); err != nil {
		t.Fatal(err)
	}
	if got := target("database-manager"); !strings.HasSuffix(got, "example/database-manager-mcp:3.1.0 --host localhost --port 5432 mydb") {
		t.Errorf("an optional value given: %s", got)
	}
	if _, err := add("io.github.example/flags", map[string]string{"dir": "/p", "verbose": "1"}, ""); !errors.Is(err, mcpregistry.ErrInvalidValue) || !strings.Contains(err.Error(), `"verbose" is not a value io.github.example/flags takes`) {
		t.Errorf("an unknown key: %v", err)
	}

	if _, err := add("io.github.alice/notes", nil, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := add("io.github.bob/notes", nil, ""); !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), "--name") {
		t.Errorf("a name clash: %v", err)
	}
	if a, err := add("io.github.bob/notes", nil, "bob-notes"); err != nil || a.Name != "bob-notes" || target("bob-notes") != "npx -y @bob/notes-mcp@1.0.0" {
		t.Errorf("added under another name: %+v %v", a, err)
	}

	a, err := add("io.github.example/old-forecast", nil, "")
	if err != nil || a.Name != "old-forecast" || !strings.Contains(a.Warning, "io.github.example/old-forecast is deprecated in the registry") || !strings.Contains(a.Warning, "Use forecast-v2 instead") {
		t.Errorf("deprecated: %+v %v", a, err)
	}
	if _, err := add("io.github.example/malware", nil, ""); !errors.Is(err, mcpregistry.ErrDeleted) {
		t.Errorf("deleted: %v", err)
	}
	if _, ok := h.Servers.Get("malware"); ok {
		t.Error("a deleted server was added")
	}
	if _, err := h.MCPRegistry.Preview(t.Context(), RegistryPick{URL: reg.URL, Name: "io.github.example/malware"}); !errors.Is(err, mcpregistry.ErrDeleted) {
		t.Errorf("preview of a deleted server: %v", err)
	}
	_, err = add("io.github.example/http-pkg", nil, "")
	if !errors.Is(err, ErrRegistryUnsupported) || !strings.Contains(err.Error(), "serves streamable-http itself") {
		t.Errorf("a package serving HTTP: %v", err)
	}
	for _, err := range []error{err} {
		if !RegistryRefused(err) {
			t.Errorf("not a refusal: %v", err)
		}
	}
}

// TestRegistryURLSetting: the setting takes https and plain http to this
// computer only; a name that only starts like localhost is refused.
func TestRegistryURLSetting(t *testing.T) {
	h := open(t)
	for u, ok := range map[string]bool{
		"https://registry.example.com": true, "http://127.0.0.1:9000": true, "http://localhost:8080/": true, "http://[::1]:8080": true, "": true,
		"http://localhost.evil.example": false, "http://127.0.0.1.nip.io": false, "http://registry.example.com": false, "ftp://x": false,
	} {
		err := h.MCPRegistry.SetURL(u)
		if (err == nil) != ok {
			t.Errorf("SetURL(%q): %v", u, err)
		}
	}
}

// TestRegistryBundleForm: the window downloads an mcpb package once to
// show its form, then Add installs that download with the form's answers
// (several for a multiple option) under the manifest's name; a --name is
// refused (a bundle names itself).
func TestRegistryBundleForm(t *testing.T) {
	packed := bundletest.Pack(t, "echo-env")
	body, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	var downloads atomic.Int64
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		downloads.Add(1)
		_, _ = w.Write(body)
	}))
	t.Cleanup(files.Close)
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(fmt.Sprintf(`{"name": "io.github.example/echo-full", "description": "d", "version": "1.2.0",
		"packages": [{"registryType": "mcpb", "identifier": %q, "fileSha256": %q, "version": "1.2.0", "transport": {"type": "stdio"}}]}`, files.URL+"/echo-full.mcpb", hex.EncodeToString(sum[:])))
	h := liveHost(t)
	pick := RegistryPick{URL: reg.URL, Name: "io.github.example/echo-full"}
	path, err := h.MCPRegistry.FetchBundle(t.Context(), pick)
	if err != nil {
		t.Fatal(err)
	}
	in, err := h.Bundles.Inspect(t.Context(), path)
	if err != nil || in.Bundle.Manifest.Name != "echo-env" {
		t.Fatalf("inspect: %v", err)
	}
	pick.EntryName = "echo-full"
	if _, err := h.MCPRegistry.Add(t.Context(), pick); !errors.Is(err, mcpregistry.ErrInvalidValue) || !strings.Contains(err.Error(), "installs under the name its bundle's manifest gives") {
		t.Fatalf("another name: %v", err)
	}
	pick.EntryName = ""
	n := downloads.Load()
	pick.Bundle = map[string][]string{"api_key": {"sk-FORM-1"}, "folders": {"/a", "/b"}}
	added, err := h.MCPRegistry.Add(t.Context(), pick)
	if err != nil || added.Name != "echo-env" {
		t.Fatalf("add: %+v %v", added, err)
	}
	if got := downloads.Load(); got != n {
		t.Errorf("Add downloaded again (%d downloads, %d before)", got, n)
	}
	env, args := shown(t, h)
	if env["ECHO_API_KEY"] != secrets.Mask("sk-FORM-1") || !strings.Contains(strings.Join(args, " "), "/a /b") {
		t.Errorf("the form's answers: env %v args %v", env, args)
	}
	if left, _ := filepath.Glob(filepath.Join(h.Dir().String(), "registry-downloads", "*")); len(left) > 0 {
		t.Errorf("the download was kept after Add: %v", left)
	}
}
