package localmodel

import "golang.org/x/sys/unix"

// availableMemory on macOS is half the physical memory: what is free now
// needs the Mach VM statistics, and macOS keeps most memory in use as a
// cache it gives back; half leaves the rest of the machine its share.
func availableMemory() int64 {
	total, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0
	}
	return int64(total / 2)
}
