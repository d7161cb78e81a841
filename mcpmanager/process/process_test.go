package process

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

func TestMain(m *testing.M) {
	// Re-executed as a stand-in app: start a child tree, print its PIDs, block.
	if os.Getenv("PROCESS_TEST_PARENT") == "1" {
		spec := Spec{Command: "/bin/sh", Args: []string{"-c", treeScript}, Env: os.Environ()}
		if c := os.Getenv("PROCESS_TEST_COMMAND"); c != "" {
			spec = Spec{Command: c, Env: os.Environ()}
			if a := os.Getenv("PROCESS_TEST_ARG"); a != "" {
				spec.Args = []string{a}
			}
		}
		p, err := Start(spec)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		line, _ := bufio.NewReader(p.Stdout).ReadString('\n')
		fmt.Print(line)
		select {}
	}
	proctest.Main(m, nil)
}

// treeScript starts a grandchild and prints "leader grandchild" PIDs.
const treeScript = `sleep 300 & echo "$$ $!"; wait`

func shorten(t *testing.T) {
	t.Helper()
	s, te, k := StopGrace, TermGrace, KillGrace
	StopGrace, TermGrace, KillGrace = 200*time.Millisecond, 200*time.Millisecond, 2*time.Second
	t.Cleanup(func() { StopGrace, TermGrace, KillGrace = s, te, k })
}

func readPIDs(t *testing.T, r *bufio.Reader) []int {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("read pids: %v (line %q)", err, line)
	}
	var pids []int
	for _, f := range strings.Fields(line) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad pid line %q", line)
		}
		pids = append(pids, n)
	}
	return pids
}

func TestStopEndsWholeTree(t *testing.T) {
	shorten(t)
	cases := []struct {
		name, script string
		stage        string
	}{
		{"exits on stdin close", `sleep 300 & echo "$$ $!"; read x; exit 0`, "stdin"},
		{"needs SIGTERM", `sleep 300 & echo "$$ $!"; wait`, "term"},
		{"ignores SIGTERM", `trap '' TERM; sleep 300 & echo "$$ $!"; while :; do sleep 0.05; done`, "kill"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Start(Spec{Command: "/bin/sh", Args: []string{"-c", c.script}, Env: os.Environ()})
			if err != nil {
				t.Fatal(err)
			}
			pids := readPIDs(t, bufio.NewReader(p.Stdout))
			if pids[0] != p.PID() {
				t.Fatalf("leader pid %d, want %d", pids[0], p.PID())
			}
			start := time.Now()
			if err := p.Stop(t.Context()); err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			proctest.WaitGone(t, pids...)
			// The stage that ended it shows in how long it took.
			switch c.stage {
			case "stdin":
				if took >= StopGrace {
					t.Errorf("took %v; should end on stdin close", took)
				}
			case "term":
				if took < StopGrace || took >= StopGrace+TermGrace {
					t.Errorf("took %v; should end on SIGTERM", took)
				}
			case "kill":
				if took < StopGrace+TermGrace {
					t.Errorf("took %v; should need SIGKILL", took)
				}
			}
			if p.Stop(t.Context()) != nil {
				t.Error("second Stop should return the first result")
			}
		})
	}
}

func TestChildDiesWithApp(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), "PROCESS_TEST_PARENT=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	pids := readPIDs(t, bufio.NewReader(out))
	_ = parent.Process.Signal(syscall.SIGKILL)
	_ = parent.Wait()
	// Pdeathsig kills the leader and the watchdog the rest of its group:
	// the grandchild (sleep 300, which ignores stdin) must be gone too.
	proctest.WaitGone(t, pids...)
}

func TestNotFound(t *testing.T) {
	_, err := Start(Spec{Command: "switchboard-no-such-command"})
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want NotFoundError", err)
	}
	if want := "switchboard-no-such-command was not found: install it, or give its full path as the command in Edit"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if _, detail := nf.Plain(); !strings.Contains(detail, "executable file not found") {
		t.Errorf("detail %q should keep what exec said", detail)
	}
}

// A missing launcher says what to install, in one sentence.
func TestNotFoundSentences(t *testing.T) {
	for _, c := range []struct{ command, want string }{
		{"uvx", "uvx is not installed: install uv (https://docs.astral.sh/uv/) or change the command in Edit"},
		{"/usr/bin/npx", "npx is not installed: install Node.js (https://nodejs.org) or change the command in Edit"},
		{`C:\Program Files\nodejs\node.exe`, "node is not installed: install Node.js (https://nodejs.org) or change the command in Edit"},
		{"python3", "python3 is not installed: install Python 3 (https://www.python.org/downloads/) or change the command in Edit"},
		{"docker", "docker is not installed: install Docker (https://docs.docker.com/get-docker/), or Podman with the docker alias, or change the command in Edit"},
		{"./my-server", "./my-server was not found: install it, or give its full path as the command in Edit"},
		// A whole command line as the command says so, not "install it".
		{"npx -y @modelcontextprotocol/server-memory", `npx -y @modelcontextprotocol/server-memory was not found: the command holds its arguments too; put "npx" alone as the command and the rest in the arguments (Edit)`},
	} {
		err := &NotFoundError{Command: c.command, Err: exec.ErrNotFound}
		if err.Error() != c.want {
			t.Errorf("%s: %q\nwant %q", c.command, err.Error(), c.want)
		}
	}
}

func TestLookPathUsesGivenPATH(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mytool")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notexec"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LookPath("mytool", "/nonexistent"+string(os.PathListSeparator)+dir)
	if err != nil || got != bin {
		t.Fatalf("LookPath = %q, %v", got, err)
	}
	if _, err := LookPath("notexec", dir); err == nil {
		t.Error("non-executable file should not be found")
	}
	if got, _ := LookPath("./rel/tool", ""); got != "./rel/tool" {
		t.Errorf("paths are returned as is, got %q", got)
	}
	if m := MergePATH("/a:/b", "/b:/c:"); m != "/a:/b:/c" {
		t.Errorf("MergePATH = %q", m)
	}
}

func TestLoginPATHIncludesOwnPATH(t *testing.T) {
	got := LoginPATH()
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d != "" && !strings.Contains(string(os.PathListSeparator)+got+string(os.PathListSeparator), string(os.PathListSeparator)+d+string(os.PathListSeparator)) {
			t.Errorf("login PATH %q lacks %q", got, d)
		}
	}
}
