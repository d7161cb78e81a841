package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestConcurrentServersAdd runs twenty 'switchboard servers add' processes
// (the real binary) at once on one data dir: each must exit 0 and every
// server must be in config.json afterwards. Without the lock each process
// read the file, another saved, and the first saved over it.
func TestConcurrentServersAdd(t *testing.T) {
	bin := proctest.Switchboard(t)
	data, home := t.TempDir(), t.TempDir()
	const n = 20
	type proc struct {
		cmd    *exec.Cmd
		stderr bytes.Buffer
	}
	procs := make([]*proc, n)
	for i := range procs {
		p := &proc{cmd: exec.CommandContext(t.Context(), bin, "--data-dir", data, "servers", "add", fmt.Sprintf("s%02d", i), "--", "npx", "-y", "pkg")}
		p.cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home)
		p.cmd.Stderr = &p.stderr
		procs[i] = p
	}
	for _, p := range procs {
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("servers add s%02d: %v\n%s", i, err, p.stderr.String())
		}
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for i := range n {
		if _, ok := cfg.Lookup(fmt.Sprintf("s%02d", i)); !ok {
			missing = append(missing, fmt.Sprintf("s%02d", i))
		}
	}
	if len(missing) > 0 || len(cfg.Servers) != n {
		t.Fatalf("%d servers after %d concurrent adds; missing %v", len(cfg.Servers), n, missing)
	}
}

// TestCommandsStopOnSignal: once the signal context ends (SIGINT, SIGTERM),
// a command reading the config stops with an error instead of going on.
func TestCommandsStopOnSignal(t *testing.T) {
	data := t.TempDir()
	if code, _, errOut := runIn(t, data, "servers", "add", "one", "--", "npx", "pkg"); code != 0 {
		t.Fatalf("add: %d %s", code, errOut)
	}
	file := writeFile(t, "claude_desktop_config.json", `{"mcpServers": {"two": {"command": "npx"}}}`)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, args := range [][]string{
		{"servers", "list"},
		{"servers", "add", "three", "--", "npx"},
		{"servers", "import", file},
		{"tools", "list", "--config", file},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(ctx, append([]string{"--data-dir", data}, args...), Env{Stdout: &out, Stderr: &errb})
			if code != ExitRuntime || !strings.Contains(errb.String(), "context canceled") {
				t.Fatalf("exit %d, stderr %q; want exit 1 saying it was stopped", code, errb.String())
			}
			if strings.Contains(out.String(), "one") {
				t.Errorf("went on after the signal: %s", out.String())
			}
		})
	}
	if cfg, err := config.Load(filepath.Join(data, "config.json")); err != nil || len(cfg.Servers) != 1 {
		t.Fatalf("config changed after the signal: %v, %v", cfg, err)
	}
}
