package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
)

// PythonWaitDelay is how long, once Python has exited (or was killed) and
// the rest of its process group was killed, its output pipe is still read
// while a process that left the group holds it open.
var PythonWaitDelay = 2 * time.Second

// RunResult is the outcome of RunPython.
type RunResult struct {
	Output       string `json:"output"`
	OmittedBytes int64  `json:"omittedBytes,omitempty"`
	ExitCode     int    `json:"exitCode"`
	TimedOut     bool   `json:"timedOut,omitempty"`
	// LeftRunning: the program exited leaving processes running in its
	// process group; they were killed.
	LeftRunning bool `json:"leftRunning,omitempty"`
	// OutputCut: a process that left the program's process group still
	// held its output open PythonWaitDelay after it exited; what it wrote
	// later is not in Output.
	OutputCut bool `json:"outputCut,omitempty"`
}

// RunPython runs code with python3 (read from its standard input) in the
// workspace root, with the shell's minimal environment, and returns its
// output (stdout and stderr, capped like the shell's). At timeout (0:
// shell.DefaultTimeout; at most shell.MaxTimeout), when ctx ends or when
// the workspace closes, its whole process group is killed, and so is what
// it leaves running when it exits. Each run is a new interpreter: nothing
// persists between runs but files.
func (w *Workspace) RunPython(ctx context.Context, code string, timeout time.Duration) (RunResult, error) {
	if strings.TrimSpace(code) == "" {
		return RunResult{}, invalid("code is empty; pass the Python source to run")
	}
	py, err := w.python3()
	if err != nil {
		return RunResult{}, err
	}
	timeout = shell.EffectiveTimeout(timeout)
	done, err := w.run()
	if err != nil {
		return RunResult{}, err
	}
	defer done()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(w.ctx, cancel) // Close ends the run
	defer stop()

	cmd := exec.CommandContext(ctx, py, "-")
	cmd.Dir, cmd.Env = w.dir, w.env
	cmd.Stdin = strings.NewReader(code)
	cmd.WaitDelay = PythonWaitDelay
	inGroup(cmd)
	res, err := runGroup(cmd)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.TimedOut = true
		return res, nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, err
}

// python3 finds python3 on the workspace's PATH.
func (w *Workspace) python3() (string, error) {
	pathList := ""
	for _, kv := range w.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathList = v
		}
	}
	py, err := shell.LookPath("python3", pathList)
	if err != nil {
		return "", rule(ErrNoPython, "python3 is not on the PATH (%s); install Python 3, or run the code another way with execute_shell", pathList)
	}
	return py, nil
}

// runGroup runs cmd, in a process group of its own, until it exits, then
// kills what it left running in its group and collects its output.
//
// The output goes through a pipe of ours, not one exec makes: exec's Wait
// would wait for every process holding its pipe, so a child the program
// left running (subprocess.Popen without wait) would hold the call until
// WaitDelay and fail it. With our own pipe Wait returns when the program
// exits, and reading ends once the leftovers are killed.
func runGroup(cmd *exec.Cmd) (RunResult, error) {
	res := RunResult{ExitCode: -1}
	pr, pw, err := os.Pipe()
	if err != nil {
		return res, fmt.Errorf("run python3: make its output pipe: %w", err)
	}
	defer pr.Close()
	cmd.Stdout, cmd.Stderr = pw, pw
	err = cmd.Start()
	pw.Close() // the program holds its own copy; the read ends once it and its children close theirs
	if err != nil {
		return res, fmt.Errorf("run python3: %w", err)
	}
	out := shell.NewOutputBuffer(shell.MaxOutput)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(out, pr)
	}()
	err = cmd.Wait()
	res.ExitCode = cmd.ProcessState.ExitCode()
	res.LeftRunning = killGroup(cmd.Process.Pid)
	res.OutputCut = !drained(copied, pr, PythonWaitDelay)
	res.Output, res.OmittedBytes = out.Text()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay) {
		return res, fmt.Errorf("run python3: %w", err)
	}
	return res, nil
}

// drained waits up to d for the output to be read to its end, then stops
// reading. It reports whether the end came.
func drained(copied <-chan struct{}, pr *os.File, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-copied:
		return true
	case <-t.C:
	}
	if pr.SetReadDeadline(time.Now()) != nil {
		pr.Close() // not pollable: closing is the way to end the read
	}
	<-copied
	return false
}
