package workspace

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
)

// PythonWaitDelay is how long a Python run that was killed may keep its
// output pipes open (through a child that left its process group) before
// they are closed.
var PythonWaitDelay = 2 * time.Second

// RunResult is the outcome of RunPython.
type RunResult struct {
	Output       string `json:"output"`
	OmittedBytes int64  `json:"omittedBytes,omitempty"`
	ExitCode     int    `json:"exitCode"`
	TimedOut     bool   `json:"timedOut,omitempty"`
}

// RunPython runs code with python3 (read from its standard input) in the
// workspace root, with the shell's minimal environment, and returns its
// output (stdout and stderr, capped like the shell's). At timeout (0:
// shell.DefaultTimeout; at most shell.MaxTimeout), when ctx ends or when
// the workspace closes, its whole process group is killed. Each run is a
// new interpreter: nothing persists between runs but files.
func (w *Workspace) RunPython(ctx context.Context, code string, timeout time.Duration) (RunResult, error) {
	if strings.TrimSpace(code) == "" {
		return RunResult{}, invalid("code is empty; pass the Python source to run")
	}
	pathList := ""
	for _, kv := range w.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathList = v
		}
	}
	py, err := shell.LookPath("python3", pathList)
	if err != nil {
		return RunResult{}, rule(ErrNoPython, "python3 is not on the PATH (%s); install Python 3, or run the code another way with execute_shell", pathList)
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

	out := shell.NewOutputBuffer(shell.MaxOutput)
	cmd := exec.CommandContext(ctx, py, "-")
	cmd.Dir, cmd.Env = w.dir, w.env
	cmd.Stdin = strings.NewReader(code)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = PythonWaitDelay
	inGroup(cmd)
	err = cmd.Run()
	var res RunResult
	res.Output, res.OmittedBytes = out.Text()
	res.ExitCode = -1
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.TimedOut = true
		return res, nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return res, fmt.Errorf("run python3: %w", err)
	}
	return res, nil
}
