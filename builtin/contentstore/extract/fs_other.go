//go:build !linux

package extract

// PseudoFS names the pseudo filesystem path is on; only Linux has
// pseudo filesystems of regular files (/proc, /sys), so elsewhere it is "".
func PseudoFS(string) string { return "" }
