// Package process starts and stops the child process of a stdio MCP server.
//
// Stopping a server ends its whole tree (npx → node, uvx → python, sh -c
// ...), not just the direct child. Each server runs in its own process
// group. On Linux it also runs in its own cgroup when the system allows it
// (cgroup v2 with a subtree this user may write: a systemd user session, a
// container, root), so even a descendant that left the group and the
// session with setsid is found; without one, Stop finds descendants by
// their parent process IDs in /proc, looking again and again while it
// stops, and by the MarkVar each server's environment gets on Linux (a
// daemon whose parent already exited). If the app dies, even by SIGKILL, a
// watchdog process kills every group, cgroup and marked process still
// running (and on Linux the direct child also gets Pdeathsig).
//
// Stopping is staged, as in the MCP spec's stdio shutdown: close stdin, wait
// StopGrace; SIGTERM the tree, wait TermGrace; SIGKILL the tree. Once the
// server itself has exited, whatever is left of its tree is SIGKILLed.
//
//	p, err := process.Start(process.Spec{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}})
//	if err != nil { ... }
//	// speak JSON-RPC over p.Stdin / p.Stdout; p.Stderr carries the server's log
//	defer p.Stop(context.Background())
package process

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Grace periods of the staged stop. Variables so tests can shorten them.
var (
	StopGrace = 2 * time.Second // after closing stdin, before SIGTERM
	// AbortGrace replaces StopGrace in Abort: a child that never finished
	// its handshake has nothing to save.
	AbortGrace = 100 * time.Millisecond
	TermGrace  = 2 * time.Second // after SIGTERM, before SIGKILL
	KillGrace  = 2 * time.Second // after SIGKILL, before giving up
	// SnapshotInterval is how often Stop looks for new descendants while
	// it waits, when they are found by ancestry (Linux without a cgroup).
	SnapshotInterval = 50 * time.Millisecond
)

// MarkVar is the environment variable every server started on Linux gets
// (on other systems none is added):
// APPPID-APPSTART-N, unique to one start of one server. Its descendants
// inherit it, so one that left the process group and session and whose
// parent already exited (a daemon: npm wrappers, uvx or docker helpers)
// is still found when the server is stopped, and when the app dies (the
// watchdog ends every process carrying this app's marks). A descendant
// that clears its environment before it leaves loses the mark.
//
// Why not make the app a child subreaper (PR_SET_CHILD_SUBREAPER) so such
// orphans come back to it: an adopted orphan's link to its server is lost
// just the same, so it would still need a mark to be told apart; and the
// flag is process-wide, so every orphan of every child (the workspace
// terminal's background jobs too) would become the app's to reap, and a
// zombie cannot be told from a direct child an exec.Cmd.Wait is about to
// reap.
const MarkVar = "SWITCHBOARD_PROCESS_TREE"

// ErrNotStopped is returned by Stop when the process or one of its
// descendants survived SIGKILL (for example stuck in uninterruptible sleep).
var ErrNotStopped = errors.New("process did not exit after SIGKILL")

// Spec says what to run. Env is the complete environment (KEY=VALUE); nil
// means an empty environment, not the app's.
type Spec struct {
	Command string
	Args    []string
	Env     []string
	Dir     string
}

// Process is a running child. Stdin, Stdout and Stderr are its pipes; the
// caller must keep reading Stdout and Stderr (a full pipe blocks the child).
// Stop and Wait are safe for concurrent use.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	Stderr io.ReadCloser

	cmd      *exec.Cmd
	tree     *tree         // the descendants: cgroup or ancestry (Linux)
	done     chan struct{} // closed when the child has exited
	waitErr  error
	stopOnce sync.Once
	stopErr  error
}

// Start launches spec in a new process group (and, on Linux, a new cgroup
// when the system allows it).
func Start(spec Spec) (*Process, error) {
	cgroup := cgroupsUsable()
	p, err := start(spec, cgroup)
	var nf *NotFoundError
	if err != nil && cgroup && !errors.As(err, &nf) {
		// The cgroup may be what failed (no clone into a cgroup, refused
		// by a policy): once without it, and never again if that works.
		if p, err2 := start(spec, false); err2 == nil {
			disableCgroups(err)
			return p, nil
		}
	}
	return p, err
}

func start(spec Spec, cgroup bool) (*Process, error) {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Dir = spec.Dir
	cmd.SysProcAttr = sysProcAttr()
	t, err := newTree(cgroup, cmd.SysProcAttr)
	if err != nil {
		return nil, err
	}
	cmd.Env = t.env(cmd.Env)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.abandon()
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	// Our own pipes, not cmd.StdoutPipe: Wait closes those as soon as the
	// child exits, losing its last lines (a crash message, a final response).
	// With *os.File ends, the reader sees everything and then EOF.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		t.abandon()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		t.abandon()
		stdout.Close()
		stdoutW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = stdoutW, stderrW
	err = startCmd(cmd)
	stdoutW.Close() // the child holds its own copies
	stderrW.Close()
	if err != nil {
		t.abandon()
		stdout.Close()
		stderr.Close()
		return nil, err
	}
	t.started(cmd.Process.Pid)
	p := &Process{Stdin: stdin, Stdout: stdout, Stderr: stderr, cmd: cmd, tree: t, done: make(chan struct{})}
	watch(p.PID(), true)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// PID returns the child's process ID (also its process group ID).
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Done is closed when the child has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err returns the child's exit error once Done is closed (nil for exit 0).
func (p *Process) Err() error {
	select {
	case <-p.done:
		return p.waitErr
	default:
		return nil
	}
}

// Stop ends the child and its whole tree: close stdin, wait; SIGTERM, wait;
// SIGKILL. Once the child has exited, what is left of its tree is SIGKILLed.
// It returns when the child and every descendant found have exited, or ctx
// ends. Calling Stop again returns the first result.
func (p *Process) Stop(ctx context.Context) error { return p.stopWith(ctx, StopGrace) }

// Abort is Stop for a child that never became ready (its MCP handshake
// failed or timed out): stdin is closed, but SIGTERM follows after
// AbortGrace instead of StopGrace, so the failure is reported without
// waiting on a child that is not listening.
func (p *Process) Abort(ctx context.Context) error { return p.stopWith(ctx, AbortGrace) }

func (p *Process) stopWith(ctx context.Context, stdinGrace time.Duration) error {
	p.stopOnce.Do(func() {
		p.stopErr = p.stop(ctx, stdinGrace)
		if p.stopErr == nil {
			watch(p.PID(), false)
		}
	})
	return p.stopErr
}

func (p *Process) stop(ctx context.Context, stdinGrace time.Duration) error {
	// Before stdin closes: once the child exits, its children are orphans
	// and only found by ancestry while they are still known.
	p.tree.snapshot()
	_ = p.Stdin.Close()
	if p.wait(ctx, stdinGrace) {
		return p.finish(ctx)
	}
	terminateGroup(p.PID())
	p.tree.signal(false)
	if p.wait(ctx, TermGrace) {
		return p.finish(ctx)
	}
	killGroup(p.PID())
	p.tree.signal(true)
	if p.wait(ctx, KillGrace) {
		return p.finish(ctx)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stop pid %d: %w", p.PID(), ctx.Err())
	}
	return fmt.Errorf("stop pid %d: %w", p.PID(), ErrNotStopped)
}

// finish SIGKILLs what is left of the tree once the child has exited (its
// children may not have) and waits up to KillGrace for all of it to end.
func (p *Process) finish(ctx context.Context) error {
	p.tree.snapshot()
	killGroup(p.PID())
	p.tree.signal(true)
	t := time.NewTimer(KillGrace)
	defer t.Stop()
	tick := time.NewTicker(SnapshotInterval)
	defer tick.Stop()
	for !p.tree.gone() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("stop the descendants of pid %d: %w", p.PID(), ctx.Err())
		case <-t.C:
			return fmt.Errorf("stop the descendants of pid %d: %w", p.PID(), ErrNotStopped)
		case <-tick.C:
			p.tree.snapshot() // a child forked just before the kill
			p.tree.signal(true)
		}
	}
	p.tree.release()
	return nil
}

// wait reports whether the child exited within d (or before ctx ended),
// looking for new descendants every SnapshotInterval meanwhile.
func (p *Process) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	tick := time.NewTicker(SnapshotInterval)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return true
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		case <-tick.C:
			p.tree.snapshot()
		}
	}
}

// lookPathErr turns exec's "not found" into a sentence a user can act on.
func lookPathErr(command string, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return &NotFoundError{Command: command, Err: err}
	}
	return fmt.Errorf("start %s: %w", command, err)
}

// NotFoundError says a server's command is not installed or not on PATH.
// It says so in plain words (plain.Explainer): which launcher is missing,
// what to install, or to change the command.
type NotFoundError struct {
	Command string
	Err     error
}

func (e *NotFoundError) Error() string {
	s, _ := e.Plain()
	return s
}

// Plain is the sentence a person reads ("uvx is not installed: install uv
// (https://docs.astral.sh/uv/) or change the command in Edit") and what
// the system said.
func (e *NotFoundError) Plain() (sentence, detail string) {
	base := baseName(e.Command)
	if e.Err != nil {
		detail = fmt.Sprintf("exec %q: %v", e.Command, e.Err)
	}
	if fields := strings.Fields(e.Command); len(fields) > 1 && !strings.ContainsAny(fields[0], `/\`) {
		// "npx -y @scope/server" as the command: the program is its first word.
		return fmt.Sprintf("%s was not found: the command holds its arguments too; put %q alone as the command and the rest in the arguments (Edit)", e.Command, fields[0]), detail
	}
	if hint, ok := installers[base]; ok {
		return fmt.Sprintf("%s is not installed: %s or change the command in Edit", base, hint), detail
	}
	return fmt.Sprintf("%s was not found: install it, or give its full path as the command in Edit", e.Command), detail
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// installers says what to install for each launcher servers are started with.
var installers = map[string]string{
	"npx": "install Node.js (https://nodejs.org)", "node": "install Node.js (https://nodejs.org)", "npm": "install Node.js (https://nodejs.org)",
	"uvx": "install uv (https://docs.astral.sh/uv/)", "uv": "install uv (https://docs.astral.sh/uv/)",
	"python": "install Python 3 (https://www.python.org/downloads/)", "python3": "install Python 3 (https://www.python.org/downloads/)",
	"pip": "install Python 3 (https://www.python.org/downloads/)", "pipx": "install pipx (https://pipx.pypa.io)",
	"docker": "install Docker (https://docs.docker.com/get-docker/), or Podman with the docker alias,",
	"deno":   "install Deno (https://deno.com)",
	"bun":    "install Bun (https://bun.sh)", "bunx": "install Bun (https://bun.sh)",
}

func baseName(command string) string {
	for i := len(command) - 1; i >= 0; i-- {
		if command[i] == '/' || command[i] == '\\' {
			command = command[i+1:]
			break
		}
	}
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		if len(command) > len(ext) && command[len(command)-len(ext):] == ext {
			return command[:len(command)-len(ext)]
		}
	}
	return command
}
