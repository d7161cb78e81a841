// Package process starts and stops the child process of a stdio MCP server.
//
// Each server runs in its own process group, so stopping it ends the whole
// tree (npx → node, uvx → python, sh -c ...), not just the direct child. If
// the app dies, even by SIGKILL, a watchdog process kills every group still
// running (and on Linux the direct child also gets Pdeathsig).
// Stopping is staged, as in the MCP spec's stdio shutdown: close stdin, wait
// StopGrace; SIGTERM the group, wait TermGrace; SIGKILL the group.
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
	"sync"
	"time"
)

// Grace periods of the staged stop. Variables so tests can shorten them.
var (
	StopGrace = 2 * time.Second // after closing stdin, before SIGTERM
	TermGrace = 2 * time.Second // after SIGTERM, before SIGKILL
	KillGrace = 2 * time.Second // after SIGKILL, before giving up
)

// ErrNotStopped is returned by Stop when the process survived SIGKILL (for
// example stuck in uninterruptible sleep).
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
	done     chan struct{} // closed when the child has exited
	waitErr  error
	stopOnce sync.Once
	stopErr  error
}

// Start launches spec in a new process group.
func Start(spec Spec) (*Process, error) {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Dir = spec.Dir
	cmd.SysProcAttr = sysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	// Our own pipes, not cmd.StdoutPipe: Wait closes those as soon as the
	// child exits, losing its last lines (a crash message, a final response).
	// With *os.File ends, the reader sees everything and then EOF.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		stdout.Close()
		stdoutW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = stdoutW, stderrW
	err = startCmd(cmd)
	stdoutW.Close() // the child holds its own copies
	stderrW.Close()
	if err != nil {
		stdout.Close()
		stderr.Close()
		return nil, err
	}
	p := &Process{Stdin: stdin, Stdout: stdout, Stderr: stderr, cmd: cmd, done: make(chan struct{})}
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

// Stop ends the child and every process in its group: close stdin, wait;
// SIGTERM, wait; SIGKILL. It returns when the child has exited or ctx ends.
// Calling Stop again returns the first result.
func (p *Process) Stop(ctx context.Context) error {
	p.stopOnce.Do(func() {
		p.stopErr = p.stop(ctx)
		if p.stopErr == nil {
			watch(p.PID(), false)
		}
	})
	return p.stopErr
}

func (p *Process) stop(ctx context.Context) error {
	_ = p.Stdin.Close()
	if p.wait(ctx, StopGrace) {
		killGroup(p.PID()) // the leader left; its children may not have
		return nil
	}
	terminateGroup(p.PID())
	if p.wait(ctx, TermGrace) {
		killGroup(p.PID())
		return nil
	}
	killGroup(p.PID())
	if p.wait(ctx, KillGrace) {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stop pid %d: %w", p.PID(), ctx.Err())
	}
	return fmt.Errorf("stop pid %d: %w", p.PID(), ErrNotStopped)
}

// wait reports whether the child exited within d (or before ctx ended).
func (p *Process) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
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
type NotFoundError struct {
	Command string
	Err     error
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("command %q not found: %s", e.Command, InstallHint(e.Command))
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// InstallHint says what to install for a missing command.
func InstallHint(command string) string {
	switch base := baseName(command); base {
	case "npx", "node", "npm":
		return "install Node.js (https://nodejs.org) so that " + base + " is on your PATH"
	case "uvx", "uv":
		return "install uv (https://docs.astral.sh/uv/) so that " + base + " is on your PATH"
	case "python", "python3", "pip", "pipx":
		return "install Python 3 so that " + base + " is on your PATH"
	case "docker":
		return "install Docker (or Podman with the docker alias) and make sure it is running"
	case "deno":
		return "install Deno (https://deno.com)"
	case "bun", "bunx":
		return "install Bun (https://bun.sh)"
	default:
		return "install it, or give its full path in the server's \"command\""
	}
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
