package sandbox

import (
	"context"
	"os"
	"path/filepath"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// SandboxExec is macOS's sandbox-exec.
var SandboxExec = "/usr/bin/sandbox-exec"

func available(context.Context) error {
	if !exists(SandboxExec) {
		return &Error{Op: "sandbox-exec", Path: SandboxExec, Err: ErrUnsupported}
	}
	return nil
}

// wrap runs plan under sandbox-exec. macOS cannot mount a private home and
// temp, so they are fresh folders under the system temp folder, and HOME
// and TMPDIR point at them.
func wrap(plan Plan) (process.Spec, error) {
	private, err := os.MkdirTemp("", "switchboard-sandbox-*")
	if err != nil {
		return process.Spec{}, &Error{Op: "sandbox-exec", Err: err}
	}
	home, tmp := filepath.Join(private, "home"), filepath.Join(private, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return process.Spec{}, &Error{Op: "sandbox-exec", Path: d, Err: err}
		}
	}
	for i, m := range plan.Mounts {
		if m.Kind != Tmpfs {
			continue
		}
		if m.Path == plan.Home {
			plan.Mounts[i].Path = home
		} else {
			plan.Mounts[i].Path = tmp
		}
	}
	if plan.Dir == plan.Home {
		plan.Dir = home
	}
	plan.Env = setEnv(setEnv(plan.Env, "HOME", home), "TMPDIR", tmp)
	args := append([]string{"-p", Profile(plan), plan.Command}, plan.Args...)
	return process.Spec{Command: SandboxExec, Args: args, Env: plan.Env, Dir: plan.Dir}, nil
}
