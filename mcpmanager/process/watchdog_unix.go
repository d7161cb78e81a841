//go:build unix

package process

import (
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
)

// The watchdog ends every server process group and cgroup when the app
// dies, even by SIGKILL, so no grandchild (npx → sh → node) outlives it. It
// is one small sh process in its own group, ignoring signals, that reads
// "+PGID" and "-PGID" lines (and "+cNAME", "-cNAME" for the cgroups under
// the directory given by a "PDIR" line) from a pipe; the kernel closes the
// pipe when the app dies, and at EOF the watchdog SIGKILLs every group and
// cgroup still registered and removes those cgroups. On Linux an "MAPPMARK"
// line names this app's MarkVar prefix: at EOF every process whose
// environment carries one of its marks is SIGKILLed too (twice, for one
// that forked meanwhile), which reaches a daemon that left the group.
const watchdogScript = `trap '' INT TERM HUP
set -f
groups=" "
cgroups=" "
parent=
mark=
while IFS= read -r l; do
  case "$l" in
    P*) parent=${l#P} ;;
    M*) mark=${l#M} ;;
    +c*) cgroups="$cgroups${l#+c} " ;;
    -c*) cgroups=$(printf '%s' "$cgroups" | sed "s/ ${l#-c} / /") ;;
    +*) groups="$groups${l#+} " ;;
    -*) groups=$(printf '%s' "$groups" | sed "s/ ${l#-} / /") ;;
  esac
done
for g in $groups; do kill -9 "-$g" 2>/dev/null; done
if [ -n "$mark" ]; then
  set +f
  for i in 1 2; do
    for f in $(grep -lzs "^` + MarkVar + `=$mark-" /proc/[0-9]*/environ); do
      p=${f#/proc/}; kill -9 "${p%/environ}" 2>/dev/null
    done
  done
  set -f
fi
for c in $cgroups; do
  echo 1 2>/dev/null >"$parent/$c/cgroup.kill" ||
    for p in $(cat "$parent/$c/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
done
for c in $cgroups; do
  i=0
  while [ $i -lt 50 ] && ! rmdir "$parent/$c" 2>/dev/null; do
    for p in $(cat "$parent/$c/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
    sleep 0.1; i=$((i+1))
  done
done
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
	sign := "-"
	if add {
		sign = "+"
	}
	tellWatchdog(fmt.Sprintf("%s%d\n", sign, pgid))
}

// watchMark tells the watchdog this app's MarkVar prefix (Linux).
func watchMark(prefix string) { tellWatchdog("M" + prefix + "\n") }

// watchCgroupParent tells the watchdog where the servers' cgroups are.
func watchCgroupParent(dir string) { tellWatchdog("P" + dir + "\n") }

// watchCgroup registers (add) or forgets a server's cgroup by name.
func watchCgroup(name string, add bool) {
	sign := "-c"
	if add {
		sign = "+c"
	}
	tellWatchdog(sign + name + "\n")
}

func tellWatchdog(line string) {
	watchdog.once.Do(startWatchdog)
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.w == nil {
		return
	}
	if _, err := io.WriteString(watchdog.w, line); err != nil {
		watchdog.w = nil // the watchdog died; Pdeathsig still covers direct children
	}
}
