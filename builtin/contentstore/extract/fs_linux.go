//go:build linux

package extract

import "syscall"

// pseudoFilesystems are the Linux filesystems whose files are the kernel's
// live state rather than stored data, by their statfs magic number. Their
// regular files report a size of 0 and some never end or block on read
// (/proc/kmsg waits for the next kernel message).
var pseudoFilesystems = map[uint32]string{
	0x9fa0:     "proc",
	0x62656572: "sysfs",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x27e0eb:   "cgroup",
	0x63677270: "cgroup2",
	0xcafe4a11: "bpf",
	0x62656570: "configfs",
	0x6165676c: "pstore",
	0xde5e81e4: "efivarfs",
	0x1cd1:     "devpts",
	0x65735543: "fusectl",
	0x19800202: "mqueue",
	0x42494e4d: "binfmt_misc",
}

// PseudoFS names the pseudo filesystem path is on ("proc", "sysfs", …), or
// returns "" for a filesystem of stored files (or when it cannot tell).
func PseudoFS(path string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return ""
	}
	// The magic numbers are 32-bit; Type's type varies by platform.
	return pseudoFilesystems[uint32(st.Type)]
}
