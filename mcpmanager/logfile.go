package mcpmanager

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// logNameLocked is the log file of server name in Options.LogDir (see
// logNameAmong), where the file it wrote before is moved once (see
// moveOldLog). m.mu is held: m.order is the configured servers.
func (m *Manager) logNameLocked(name string) string {
	file := logNameAmong(name, m.order)
	moveOldLog(m.opts.LogDir, name, filepath.Join(m.opts.LogDir, file), m.order)
	return file
}

// logNameAmong is server's log file among the configured servers: logName,
// hashed as well when another server's name differs from server's only in
// case ("Odd" beside "odd": one file on macOS's and Windows' file
// systems). Of such names the all-lower-case one keeps the plain name, so
// adding "Odd" leaves "odd"'s log where it was.
func logNameAmong(server string, servers []string) string {
	if fileBase(server) == server && caseTwin(server, servers) {
		return hashedLogName(server)
	}
	return logName(server)
}

// logName is server's log file: its name and .log when that is a file name
// as it is; else fileBase(server), "-", 8 hex digits of the SHA-256 of its
// name, and .log, as listings are named — so servers whose names sanitize
// alike ("データ" and "サービス" are both "_", "odd server" and
// "odd_server") each log into a file of their own.
func logName(server string) string {
	if base := fileBase(server); base == server {
		return base + ".log"
	}
	return hashedLogName(server)
}

func hashedLogName(server string) string {
	sum := sha256.Sum256([]byte(server))
	return fileBase(server) + "-" + hex.EncodeToString(sum[:4]) + ".log"
}

// caseTwin says whether another of servers differs from server only in
// case, and server is not the all-lower-case one.
func caseTwin(server string, servers []string) bool {
	if server == strings.ToLower(server) {
		return false
	}
	for _, o := range servers {
		if o != server && strings.EqualFold(o, server) {
			return true
		}
	}
	return false
}

// moveOldLog moves the file server logged to before logName added hashes
// (fileBase(server).log, and its rotated .1) to path, once: only while path
// is not there yet, and only when no other configured server's old file is
// the same file — "データ" and "サービス" both wrote "_.log", and
// "Odd.log" is "odd.log" on macOS; whose lines are whose cannot be told,
// so that file stays as it is.
func moveOldLog(dir, server, path string, servers []string) {
	old := filepath.Join(dir, fileBase(server)+".log")
	if old == path {
		return
	}
	if _, err := os.Lstat(path); err == nil {
		return // moved already, or written since
	}
	info, err := os.Lstat(old)
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	for _, o := range servers {
		if o == server {
			continue
		}
		if oi, err := os.Lstat(filepath.Join(dir, fileBase(o)+".log")); err == nil && os.SameFile(oi, info) {
			return
		}
	}
	for _, ext := range []string{"", ".1"} {
		if err := os.Rename(old+ext, path+ext); err != nil && ext == "" {
			slog.Warn("server's log file not moved to its new name; it starts a new one", "server", server, "path", old, "err", err)
			return
		}
	}
}
