//go:build !linux

package oauth

// portHolder names the process holding port where the system tells it
// without extra tools; elsewhere the error says "another program".
func portHolder(int) string { return "" }
