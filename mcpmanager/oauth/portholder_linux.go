package oauth

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// portHolder names the process listening on the loopback TCP port, as
// "name (PID n)", or "" when it cannot be found (another user's process,
// whose sockets this user may not read).
func portHolder(port int) string {
	inodes := listeningInodes(port)
	if len(inodes) == 0 {
		return ""
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range procs {
		fds, err := os.ReadDir(filepath.Join(dir, "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			target, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
			if err != nil || !strings.HasPrefix(target, "socket:[") {
				continue
			}
			if inodes[strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")] {
				comm, _ := os.ReadFile(filepath.Join(dir, "comm"))
				return fmt.Sprintf("%s (PID %s)", strings.TrimSpace(string(comm)), filepath.Base(dir))
			}
		}
	}
	return ""
}

// listeningInodes are the socket inodes listening on port, from
// /proc/net/tcp and tcp6 (state 0A is LISTEN; the port is hex).
func listeningInodes(port int) map[string]bool {
	out := map[string]bool{}
	want := fmt.Sprintf(":%04X", port)
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			if len(fields) < 10 || fields[3] != "0A" || !strings.HasSuffix(fields[1], want) {
				continue
			}
			if _, err := strconv.ParseUint(fields[9], 10, 64); err == nil {
				out[fields[9]] = true
			}
		}
		f.Close()
	}
	return out
}
