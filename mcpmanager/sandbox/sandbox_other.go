//go:build !linux && !darwin && !windows

package sandbox

import (
	"context"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// available: the BSDs and other systems have no sandbox yet.
func available(context.Context) error { return &Error{Op: "start", Err: ErrUnsupported} }

func wrap(Plan) (process.Spec, error) {
	return process.Spec{}, &Error{Op: "start", Err: ErrUnsupported}
}
