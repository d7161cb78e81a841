package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

// limited runs script sandboxed with the limits lowered as given, as the
// user nobody when the test runs as root (the kernel does not count a
// root-owned sandbox's processes), and returns its output.
func limited(t *testing.T, procs int, data int64, script string) string {
	t.Helper()
	oldP, oldD := sandbox.MaxProcesses, sandbox.MaxDataBytes
	sandbox.MaxProcesses, sandbox.MaxDataBytes = procs, data
	t.Cleanup(func() { sandbox.MaxProcesses, sandbox.MaxDataBytes = oldP, oldD })
	spec, err := sandbox.Prepare(t.Context(), process.Spec{Command: "/bin/sh", Args: []string{"-c", script}, Env: []string{"HOME=/nonexistent", "PATH=/usr/bin:/bin"}}, sandbox.Policy{})
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), spec.Command, spec.Args...)
	cmd.Env, cmd.Dir = spec.Env, "/"
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// TestProcessLimit: a sandboxed fork bomb stops at MaxProcesses.
func TestProcessLimit(t *testing.T) {
	// 64 background sleeps (each a process) against a limit of 16; the
	// sandbox's PID namespace ends them all when the shell exits.
	script := `i=0; while [ $i -lt 64 ]; do sleep 30 >/dev/null 2>&1 & i=$((i+1)); done; echo "all $i started"`
	out := limited(t, 16, sandbox.MaxDataBytes, script)
	if strings.Contains(out, "all 64 started") || !strings.Contains(out, "fork") {
		t.Fatalf("64 processes started under a limit of 16: %q", out)
	}
	if out := limited(t, 512, sandbox.MaxDataBytes, script); !strings.Contains(out, "all 64 started") {
		t.Fatalf("64 processes did not start under the default limit: %q", out)
	}
}

// TestMemoryLimit: a process of a sandboxed server cannot grow its data
// past MaxDataBytes.
func TestMemoryLimit(t *testing.T) {
	script := `awk 'BEGIN{s="x"; for(i=0;i<28;i++) s=s s; print "grew to " length(s)}'` // 256 MiB
	if out := limited(t, 512, 64<<20, script); strings.Contains(out, "grew to") {
		t.Fatalf("a process grew to 256 MiB under a 64 MiB limit: %q", out)
	}
	if out := limited(t, 512, 4<<30, script); !strings.Contains(out, "grew to 268435456") {
		t.Fatalf("256 MiB did not fit under the default limit: %q", out)
	}
}

// TestMissingPrlimit: without prlimit the sandboxed server does not start
// (unlimited), and the error says what to install.
func TestMissingPrlimit(t *testing.T) {
	old := sandbox.Prlimit
	sandbox.Prlimit = "prlimit-not-installed"
	t.Cleanup(func() { sandbox.Prlimit = old })
	_, err := sandbox.Prepare(t.Context(), process.Spec{Command: "/bin/true"}, sandbox.Policy{})
	if !errors.Is(err, sandbox.ErrNoPrlimit) || !strings.Contains(err.Error(), "apt install util-linux") {
		t.Fatalf("Prepare = %v; want ErrNoPrlimit", err)
	}
}
