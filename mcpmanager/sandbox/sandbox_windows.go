package sandbox

import (
	"context"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// available: Windows has no sandbox yet (no bubblewrap, no sandbox-exec).
func available(context.Context) error { return &Error{Op: "start", Err: ErrUnsupported} }

func wrap(Plan) (process.Spec, error) {
	return process.Spec{}, &Error{Op: "start", Err: ErrUnsupported}
}
