package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
)

func TestServersInstallBundle(t *testing.T) {
	data := t.TempDir()
	path := bundletest.Pack(t, "echo-env")
	const key = "sk-cli-SECRET-7777"

	code, _, errOut := runIn(t, data, "servers", "install", path)
	if code != ExitUsage || !strings.Contains(errOut, "API key (api_key) is required: enter it in the form, or pass --set api_key=VALUE") {
		t.Fatalf("without the key: exit %d, %s", code, errOut)
	}
	code, out, errOut := runIn(t, data, "servers", "install", path, "--set", "api_key="+key, "--set", "folders=/tmp/a", "--set", "folders=/tmp/b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "installed echo-env 1.2.0: Echo Env by Switchboard Tests") || !strings.Contains(out, "Unsigned: nobody vouches") {
		t.Errorf("out = %q", out)
	}
	code, out, errOut = runIn(t, data, "tools", "call", "echo-env__show", "--args", "{}")
	if code != 0 {
		t.Fatalf("tools call: exit %d: %s", code, errOut)
	}
	for _, want := range []string{key, `/tmp/a`, `/tmp/b`, `"ECHO_LIMIT":"10"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the server did not get %s: %s", want, out)
		}
	}
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("%s holds the sensitive value", p)
			}
		}
		return nil
	})

	code, out, _ = runIn(t, data, "servers", "install", path, "--set", "greeting=hey")
	if code != 0 || !strings.Contains(out, "reinstalled (was 1.2.0) echo-env") {
		t.Fatalf("reinstall: exit %d %q", code, out)
	}
	if code, _, e := runIn(t, data, "servers", "remove", "echo-env"); code != 0 {
		t.Fatal(e)
	}
	if _, err := os.Stat(filepath.Join(data, "bundles", "echo-env")); !os.IsNotExist(err) {
		t.Errorf("bundle files left after remove: %v", err)
	}
	if code, _, e := runIn(t, data, "servers", "install", filepath.Join(t.TempDir(), "none.mcpb")); code == 0 || !strings.Contains(e, "none.mcpb") {
		t.Errorf("a missing file: exit %d %s", code, e)
	}
}
