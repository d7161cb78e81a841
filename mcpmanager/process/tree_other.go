//go:build !linux

package process

import "syscall"

// tree is a no-op outside Linux: the process group (Unix) or taskkill /T
// (Windows) is all there is.
type tree struct{}

func newTree(bool, *syscall.SysProcAttr) (*tree, error) { return &tree{}, nil }

func (*tree) started(int)             {}
func (*tree) env(e []string) []string { return e }
func (*tree) abandon()                {}
func (*tree) snapshot()               {}
func (*tree) signal(bool)             {}
func (*tree) gone() bool              { return true }
func (*tree) release()                {}
func cgroupsUsable() bool             { return false }
func disableCgroups(error)            {}
