//go:build linux

package process

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// tree is a server's descendants. In a cgroup, the kernel keeps them all,
// whatever they do (setsid, double fork). Otherwise they are found by
// ancestry: every process whose parent is the server or an earlier find,
// or that carries the server's mark in its environment (a daemon whose
// parent exited before the stop began has lost its ancestry: init or a
// subreaper adopted it), each kept with its start time so a reused PID is
// never signalled.
type tree struct {
	mu          sync.Mutex
	leader      int
	leaderStart uint64
	cg          *cgroup        // nil: ancestry
	known       map[int]uint64 // ancestry: pid → start time (clock ticks after boot)
	mark        string         // this tree's MarkVar value
	unmarked    map[procID]bool
}

// procID is a process that cannot be confused with a later one of the same PID.
type procID struct {
	pid   int
	start uint64
}

// appMark is the prefix of this app's marks: its PID and start time.
var appMark = sync.OnceValue(func() string {
	st, _ := readStat(os.Getpid())
	mark := fmt.Sprintf("%d-%d", os.Getpid(), st.start)
	watchMark(mark)
	return mark
})

// newTree prepares attr so the child starts inside a new cgroup when cgroup
// is true.
func newTree(cgroup bool, attr *syscall.SysProcAttr) (*tree, error) {
	t := &tree{
		known:    map[int]uint64{},
		mark:     fmt.Sprintf("%s-%d", appMark(), cgroups.seq.Add(1)),
		unmarked: map[procID]bool{},
	}
	if !cgroup {
		return t, nil
	}
	cg, err := newCgroup()
	if err != nil {
		disableCgroups(err)
		return t, nil
	}
	t.cg = cg
	attr.UseCgroupFD, attr.CgroupFD = true, cg.fd
	return t, nil
}

// started records the child; the cgroup's directory descriptor is no longer
// needed, and the watchdog learns the cgroup.
func (t *tree) started(pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.leader = pid
	if t.cg != nil {
		t.cg.closeFD()
		watchCgroup(t.cg.name, true)
		return
	}
	if st, ok := readStat(pid); ok {
		t.known[pid] = st.start
		t.leaderStart = st.start
	}
}

// env is the child's environment with the tree's mark added (last, so it
// wins over a mark inherited from an app that started this one).
func (t *tree) env(env []string) []string {
	return append(slices.Clip(env), MarkVar+"="+t.mark)
}

// abandon undoes newTree after a failed start.
func (t *tree) abandon() {
	if t.cg != nil {
		t.cg.closeFD()
		_ = os.Remove(t.cg.dir)
	}
}

// snapshot adds every process descending from a known one (ancestry only).
func (t *tree) snapshot() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cg != nil {
		return
	}
	all := readAllStats()
	for grew := true; grew; {
		grew = false
		for pid, st := range all {
			if _, ok := t.known[pid]; ok {
				continue
			}
			if t.linked(pid, st, all) {
				t.known[pid] = st.start
				grew = true
			}
		}
	}
}

// linked reports whether pid belongs to the tree: its parent is a process
// of the tree (the very one, not a reuse of its PID), or it carries the
// tree's mark.
func (t *tree) linked(pid int, st procStat, all map[int]procStat) bool {
	if start, ok := t.known[st.ppid]; ok && all[st.ppid].start == start {
		return true
	}
	if st.zombie || t.leaderStart == 0 || st.start < t.leaderStart {
		return false // no descendant started before the server did
	}
	id := procID{pid, st.start}
	if t.unmarked[id] {
		return false
	}
	if hasMark(pid, t.mark) {
		return true
	}
	t.unmarked[id] = true // read each process's environment once
	return false
}

// hasMark reports whether pid's environment holds MarkVar=mark. Another
// user's process cannot be read (nor signalled): it has none.
func hasMark(pid int, mark string) bool {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "environ"))
	if err != nil {
		return false
	}
	entry := MarkVar + "=" + mark
	for e := range bytes.SplitSeq(b, []byte{0}) {
		if string(e) == entry {
			return true
		}
	}
	return false
}

// signal sends SIGKILL (kill) or SIGTERM to every process of the tree.
func (t *tree) signal(kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cg != nil {
		t.cg.signal(sig)
		return
	}
	for pid, start := range t.known {
		if st, ok := readStat(pid); ok && st.start == start && !st.zombie {
			_ = syscall.Kill(pid, sig)
		}
	}
}

// gone reports whether every process of the tree has exited.
func (t *tree) gone() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cg != nil {
		return t.cg.empty()
	}
	for pid, start := range t.known {
		if st, ok := readStat(pid); ok && st.start == start && !st.zombie {
			return false
		}
	}
	return true
}

// ReleaseWait bounds how long release retries removing a cgroup the kernel
// still calls busy: its last processes are gone from cgroup.procs but not
// yet reaped (the leader until its Wait returns).
var ReleaseWait = 2 * time.Second

// release removes the (empty) cgroup.
func (t *tree) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cg == nil {
		return
	}
	deadline := time.Now().Add(ReleaseWait)
	for {
		err := t.cg.remove()
		if err == nil {
			watchCgroup(t.cg.name, false)
			return
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return // the watchdog still knows it and removes it when the app ends
		}
		time.Sleep(5 * time.Millisecond) // backoff while the kernel finishes the exit
	}
}

// procStat is what /proc/PID/stat says about ancestry.
type procStat struct {
	ppid   int
	start  uint64
	zombie bool
}

// procRoot is where process information is read; a variable for tests.
var procRoot = "/proc"

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, false
	}
	return parseStat(b)
}

// parseStat reads fields 3 (state), 4 (ppid) and 22 (starttime) of a
// /proc/PID/stat line; the command name in parentheses may hold anything,
// so fields count from the last ')'.
func parseStat(b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil {
		return procStat{}, false
	}
	return procStat{ppid: ppid, start: start, zombie: f[0] == "Z" || f[0] == "X"}, true
}

func readAllStats() map[int]procStat {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	out := make(map[int]procStat, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out[pid] = st
		}
	}
	return out
}

// cgroups says whether servers get their own cgroup: unknown until the
// first start, then decided once (a failure turns them off for good).
var cgroups struct {
	once   sync.Once
	parent string // the cgroup v2 directory the app runs in
	off    atomic.Bool
	seq    atomic.Int64
}

// cgroupsUsable reports whether the next server should start in a cgroup.
func cgroupsUsable() bool {
	cgroups.once.Do(func() {
		parent, err := ownCgroup()
		if err != nil {
			slog.Debug("servers run without their own cgroup; descendants are found by ancestry", "reason", err)
			cgroups.off.Store(true)
			return
		}
		cgroups.parent = parent
		watchCgroupParent(parent)
	})
	return !cgroups.off.Load()
}

// disableCgroups turns cgroups off after one could not be used.
func disableCgroups(err error) {
	if !cgroups.off.Swap(true) {
		slog.Info("servers run without their own cgroup; descendants are found by ancestry", "reason", err)
	}
}

// cgroup is one server's cgroup v2 directory.
type cgroup struct {
	name string // directory name under cgroups.parent
	dir  string
	fd   int // the directory, open for CLONE_INTO_CGROUP until started
}

func newCgroup() (*cgroup, error) {
	name := fmt.Sprintf("switchboard-%d-%d", os.Getpid(), cgroups.seq.Add(1))
	dir := filepath.Join(cgroups.parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(dir)
		return nil, err
	}
	return &cgroup{name: name, dir: dir, fd: fd}, nil
}

func (c *cgroup) closeFD() {
	if c.fd >= 0 {
		_ = unix.Close(c.fd)
		c.fd = -1
	}
}

func (c *cgroup) pids() []int {
	b, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// signal sends sig to every member; SIGKILL goes through cgroup.kill where
// the kernel has it (5.14+), which also catches a process forking meanwhile.
func (c *cgroup) signal(sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		if err := os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0); err == nil {
			return
		}
	}
	for _, pid := range c.pids() {
		_ = syscall.Kill(pid, sig)
	}
}

func (c *cgroup) empty() bool {
	b, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	return err != nil || len(bytes.TrimSpace(b)) == 0
}

func (c *cgroup) remove() error {
	err := os.Remove(c.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// ownCgroup finds the cgroup v2 directory this process runs in and checks
// that this user may create cgroups in it and move processes there.
func ownCgroup() (string, error) {
	rel, err := ownCgroupPath()
	if err != nil {
		return "", err
	}
	mount, root, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	if root != "/" {
		if rel != root && !strings.HasPrefix(rel, root+"/") {
			return "", fmt.Errorf("cgroup %s is outside the mounted cgroup2 tree %s", rel, root)
		}
		rel = strings.TrimPrefix(rel, root)
	}
	dir := filepath.Join(mount, rel)
	if strings.ContainsAny(dir, " \t\n\\") {
		return "", fmt.Errorf("cgroup directory %q has blanks the watchdog cannot name", dir)
	}
	for _, p := range []string{dir, filepath.Join(dir, "cgroup.procs")} {
		if err := unix.Access(p, unix.W_OK); err != nil {
			return "", fmt.Errorf("cgroup %s is not delegated to this user: %w", p, err)
		}
	}
	return dir, nil
}

// ownCgroupPath reads the unified ("0::") line of /proc/self/cgroup.
func ownCgroupPath() (string, error) {
	b, err := os.ReadFile(filepath.Join(procRoot, "self", "cgroup"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok && strings.HasPrefix(p, "/") {
			return p, nil
		}
	}
	return "", errors.New("no cgroup v2 (unified hierarchy) for this process")
}

// cgroup2Mount finds where the cgroup2 file system is mounted, and which of
// its directories the mount shows as its root.
func cgroup2Mount() (mount, root string, err error) {
	f, err := os.Open(filepath.Join(procRoot, "self", "mountinfo"))
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		for i, x := range fields {
			if x == "-" && i+1 < len(fields) && i >= 5 && fields[i+1] == "cgroup2" {
				return unescapeMount(fields[4]), unescapeMount(fields[3]), nil
			}
		}
	}
	return "", "", errors.New("cgroup2 is not mounted")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
