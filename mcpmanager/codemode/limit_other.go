//go:build !unix && !windows

package codemode

import (
	"errors"
	"os/exec"
)

func prepare(*exec.Cmd) {}

// confine refuses: this system has no memory limit code mode can set.
func confine(*exec.Cmd, Limits) (func(), error) {
	return nil, errors.New("scripts cannot run on this system: it has no memory limit code mode can set")
}

func limitSelf(int) error { return nil }
