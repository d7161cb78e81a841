//go:build linux

package workspace

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
)

var pidLine = regexp.MustCompile(`pid:(\d+)`)

func pidsIn(t *testing.T, out string, want int) []int {
	t.Helper()
	var ps []int
	for _, m := range pidLine.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		ps = append(ps, n)
	}
	if len(ps) != want {
		t.Fatalf("want %d pids, got %v in %q", want, ps, out)
	}
	return ps
}

// alive reports whether pid runs (a zombie does not: it only waits to be reaped).
// survives reports whether pid is still running 5 s after it was killed:
// SIGKILL is delivered asynchronously, so a process killed a moment ago may
// not have exited yet on a loaded machine (CI saw exactly that).
func survives(pid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

func fastShellStops(t *testing.T) {
	t.Helper()
	kg, sw, st := shell.KillGrace, shell.StopWait, shell.SettleTimeout
	shell.KillGrace, shell.StopWait, shell.SettleTimeout = time.Second, 300*time.Millisecond, 900*time.Millisecond
	t.Cleanup(func() { shell.KillGrace, shell.StopWait, shell.SettleTimeout = kg, sw, st })
}

func TestExecuteShell(t *testing.T) {
	t.Setenv("SECRET_X", "hunter2")
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"sub/f.txt": "f"})
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	sh := func(args map[string]any) string { t.Helper(); return ok(t, cl, "execute_shell", args) }

	// Exit code in the text and in structuredContent.
	res, text := call(t, cl, "execute_shell", map[string]any{"command": "echo hi; sh -c 'exit 3'"})
	sc, _ := res.StructuredContent.(map[string]any)
	if res.IsError || text != "hi\n[exit code 3; working directory "+root+"]" || fmt.Sprint(sc["exitCode"]) != "3" || sc["session"] != "default" || sc["cwd"] != root {
		t.Fatalf("exit code: isError=%v %q %v", res.IsError, text, sc)
	}
	// The working directory and variables persist.
	sh(map[string]any{"command": "cd sub && export X=42"})
	if text := sh(map[string]any{"command": `pwd; echo "X=$X"`}); text != filepath.Join(root, "sub")+"\nX=42\n[exit code 0; working directory "+filepath.Join(root, "sub")+"]" {
		t.Fatalf("persistence: %q", text)
	}
	// Another session is another shell.
	if text := sh(map[string]any{"command": "pwd", "session": "other"}); !strings.HasPrefix(text, root+"\n") {
		t.Fatalf("other session: %q", text)
	}
	// The app's secrets are not in the shell's environment.
	if text := sh(map[string]any{"command": `echo "[$SECRET_X]"; env | grep -c hunter2`}); !strings.HasPrefix(text, "[]\n0\n") {
		t.Fatalf("secret inherited: %q", text)
	}

	// A terminal attached to the session sees the model's command raw; the
	// model gets it without escape sequences.
	s, err := w.Session("default")
	if err != nil {
		t.Fatal(err)
	}
	ch, cancel := s.Subscribe()
	defer cancel()
	if text := sh(map[string]any{"command": `printf '\033[1;32mgreen\033[0m done\n'`}); !strings.HasPrefix(text, "green done\n[exit code 0") {
		t.Fatalf("model output: %q", text)
	}
	waitRaw(t, ch, "\x1b[1;32mgreen\x1b[0m done")
	// What the user types runs in the model's shell.
	if err := s.Write([]byte("export FROM_USER=typed\r")); err != nil {
		t.Fatal(err)
	}
	if text := sh(map[string]any{"command": `echo "$FROM_USER"`}); !strings.HasPrefix(text, "typed\n") {
		t.Fatalf("user's command: %q", text)
	}
	infos := w.Sessions()
	if len(infos) != 2 || infos[0].Name != "default" || infos[0].Subscribers != 1 || infos[1].Name != "other" {
		t.Fatalf("sessions = %+v", infos)
	}
}

func waitRaw(t *testing.T, ch <-chan []byte, want string) {
	t.Helper()
	var buf bytes.Buffer
	deadline := time.After(15 * time.Second)
	for !strings.Contains(buf.String(), want) {
		select {
		case b := <-ch:
			buf.Write(b)
		case <-deadline:
			t.Fatalf("terminal never showed %q: %q", want, buf.String())
		}
	}
}

func TestExecuteShellTimeoutAndCap(t *testing.T) {
	fastShellStops(t)
	mo := shell.MaxOutput
	shell.MaxOutput = 2048
	t.Cleanup(func() { shell.MaxOutput = mo })
	w := open(t, Options{Root: t.TempDir()})
	cl := connect(t, w)

	res, text := call(t, cl, "execute_shell", map[string]any{
		"command":   "sleep 1000 & echo pid:$!\n(sleep 1000 & echo pid:$!; sleep 1000) & echo pid:$!\nsh -c 'echo pid:$$; exec sleep 1000'",
		"timeoutMs": 400,
	})
	if !res.IsError || !strings.Contains(text, "[timed out after 400ms: the command and every process it started were stopped") {
		t.Fatalf("timeout: isError=%v %q", res.IsError, text)
	}
	for _, pid := range pidsIn(t, text, 4) {
		if survives(pid) {
			t.Errorf("pid %d survived the timeout", pid)
		}
	}
	if text := ok(t, cl, "execute_shell", map[string]any{"command": "echo still-$((1+1))"}); !strings.HasPrefix(text, "still-2\n") {
		t.Fatalf("after timeout: %q", text)
	}

	text = ok(t, cl, "execute_shell", map[string]any{"command": "head -c 50000 /dev/zero | tr '\\0' y; echo; echo END"})
	// "y\n" then END, though bash may report the jobs killed by the
	// timeout above ("[2]+ Killed …") in between.
	if !strings.Contains(text, "bytes of output omitted; redirect the output to a file") || !regexp.MustCompile(`y(?:\[\d+\][-+ ]+Killed[^\n]*\n)?\nEND\n\[exit code 0`).MatchString(text) || len(text) > 2048+400 {
		t.Fatalf("capped output (%d bytes): %q", len(text), regexp.MustCompile(`y{20,}`).ReplaceAllString(text, "y…"))
	}
}

func TestCloseStopsShells(t *testing.T) {
	fastShellStops(t)
	w := open(t, Options{Root: t.TempDir()}) // its cleanup closes again, harmlessly
	cl := connect(t, w)
	text := ok(t, cl, "execute_shell", map[string]any{"command": "sleep 1000 & echo pid:$!\n(trap '' HUP TERM; exec sleep 1000) & echo pid:$!"})
	text += ok(t, cl, "execute_shell", map[string]any{"command": "nohup sleep 1000 >/dev/null 2>&1 & echo pid:$!", "session": "second"})
	pids := pidsIn(t, text, 3)
	for _, info := range w.Sessions() {
		pids = append(pids, info.PID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if survives(pid) {
			t.Errorf("pid %d survived Close", pid)
		}
	}
}

func TestExecutePython(t *testing.T) {
	t.Setenv("SECRET_X", "hunter2")
	root := t.TempDir()
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	if text := ok(t, cl, "execute_python", map[string]any{"code": "import os\nprint(2 + 3)\nprint(os.getcwd())\nprint(os.environ.get('SECRET_X'))\nopen('out.txt', 'w').write('from python')"}); text != "5\n"+root+"\nNone\n[exit code 0]" {
		t.Fatalf("text = %q", text)
	}
	if b, err := os.ReadFile(filepath.Join(root, "out.txt")); err != nil || string(b) != "from python" {
		t.Fatalf("file written by python: %q %v", b, err)
	}
	if text := ok(t, cl, "execute_python", map[string]any{"code": "import sys\nprint('to stderr', file=sys.stderr)\nraise SystemExit(4)"}); text != "to stderr\n[exit code 4]" {
		t.Fatalf("text = %q", text)
	}
	if text := ok(t, cl, "execute_python", map[string]any{"code": "1/0"}); !strings.Contains(text, "ZeroDivisionError") || !strings.HasSuffix(text, "[exit code 1]") {
		t.Fatalf("text = %q", text)
	}
	res, text := call(t, cl, "execute_python", map[string]any{
		"code":      "import subprocess, time\np = subprocess.Popen(['sleep', '1000'])\nprint('pid:%d' % p.pid, flush=True)\ntime.sleep(1000)",
		"timeoutMs": 4000, // python (often a pyenv shim) and its imports start slowly on a loaded machine
	})
	if !res.IsError || !strings.Contains(text, "[timed out after 4s: Python and every process it started were killed") {
		t.Fatalf("timeout: isError=%v %q", res.IsError, text)
	}
	if pid := pidsIn(t, text, 1)[0]; survives(pid) {
		t.Fatalf("python's child %d survived the timeout", pid)
	}
}

func TestExecutePythonWithoutPython(t *testing.T) {
	w := open(t, Options{Root: t.TempDir(), Path: t.TempDir()}) // a PATH with nothing on it
	cl := connect(t, w)
	fails(t, cl, "execute_python", map[string]any{"code": "print(1)"}, "python3 is not available: python3 is not on the PATH")
}

// A program that exits leaving a child running gets its output and exit
// code back, and the child does not outlive the call.
func TestExecutePythonKillsWhatItLeftRunning(t *testing.T) {
	w := open(t, Options{Root: t.TempDir()})
	cl := connect(t, w)
	text := ok(t, cl, "execute_python", map[string]any{"code": "import subprocess\np = subprocess.Popen(['sleep', '611'])\nprint('pid:%d' % p.pid)\nprint('hello')"})
	if !strings.Contains(text, "\nhello\n[exit code 0; processes it left running were killed]") {
		t.Fatalf("text = %q", text)
	}
	if pid := pidsIn(t, text, 1)[0]; survives(pid) {
		t.Fatalf("python's child %d outlived the call", pid)
	}
}

// When the shell had to be replaced, or a stopped command went on, the
// text says why, so the model knows what ran and what was reset.
func TestExecuteShellSaysWhatHappenedToTheShell(t *testing.T) {
	fastShellStops(t)
	w := open(t, Options{Root: t.TempDir()})
	cl := connect(t, w)
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": "trap '' INT; sleep 20; echo trapped", "timeoutMs": 300},
			"\n[timed out after 300ms; the command had made the shell ignore interrupts (trap '' INT), so the shell was stopped before it ran anything more, and session \"default\" was restarted: its working directory and variables were reset to the workspace root]"},
		{map[string]any{"command": "trap 'echo caught' INT; sleep 20; echo after; trap - INT", "timeoutMs": 300},
			"caught\nafter\n[timed out after 300ms and interrupted, but the command did not stop there: it handles interrupts itself (a trap on INT) or was just ending, and ran on to its end (exit code 0)."},
		{map[string]any{"command": "exec bash --norc"},
			"\n[the command replaced the shell with another shell (bash --norc), which cannot run commands for you, so session \"default\" was restarted"},
		{map[string]any{"command": "exec sleep 1000", "timeoutMs": 300},
			"\n[timed out after 300ms; the command had replaced the shell with another program (sleep 1000), so session \"default\" was restarted"},
	}
	for _, c := range cases {
		res, text := call(t, cl, "execute_shell", c.args)
		if !res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%v: isError=%v\n%q\nwant an error with\n%q", c.args["command"], res.IsError, text, c.want)
		}
	}
}

func TestExecuteShellWithoutAShell(t *testing.T) {
	dir := t.TempDir()
	w := open(t, Options{Root: t.TempDir(), Path: dir}) // a PATH with nothing on it
	cl := connect(t, w)
	fails(t, cl, "execute_shell", map[string]any{"command": "true"},
		"execute_shell: no shell found: neither bash nor sh is on the PATH ("+dir+"); install one or fix the PATH")
}
