//go:build unix

package process

import (
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
)

// The watchdog ends every server process group when the app dies, even by
// SIGKILL, so no grandchild (npx → sh → node) outlives it. It is one small
// sh process in its own group, ignoring signals, that reads "+PGID" and
// "-PGID" lines from a pipe; the kernel closes the pipe when the app dies,
// and at EOF the watchdog SIGKILLs every group still registered.
const watchdogScript = `trap '' INT TERM HUP
set -f
groups=" "
while IFS= read -r l; do
  case "$l" in
    +*) groups="$groups${l#+} " ;;
    -*) groups=$(printf '%s' "$groups" | sed "s/ ${l#-} / /") ;;
  esac
done
for g in $groups; do kill -9 "-$g" 2>/dev/null; done
`

var watchdog struct {
	once sync.Once
	mu   sync.Mutex
	w    io.WriteCloser // nil when the watchdog could not start
}

func startWatchdog() {
	cmd := exec.Command("/bin/sh", "-c", watchdogScript)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	if err := cmd.Start(); err != nil {
		return
	}
	go func() { _ = cmd.Wait() }() // reap it if it ever exits early
	watchdog.w = w
}

// watch registers (add) or forgets a process group with the watchdog.
func watch(pgid int, add bool) {
	watchdog.once.Do(startWatchdog)
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.w == nil {
		return
	}
	sign := "-"
	if add {
		sign = "+"
	}
	if _, err := fmt.Fprintf(watchdog.w, "%s%d\n", sign, pgid); err != nil {
		watchdog.w = nil // the watchdog died; Pdeathsig still covers direct children
	}
}
