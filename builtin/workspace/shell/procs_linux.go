package shell

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// On Linux the processes of a shell are found in /proc: everything in the
// shell's session (jobs keep it even when their own parent has died) plus
// its descendants (which may have started sessions of their own). A
// process that both leaves the session and loses its parent (a daemon) is
// not found.

// pollInterval is how often /proc is read while waiting for killed
// processes to go.
var pollInterval = 5 * time.Millisecond

type procStat struct {
	pid, ppid, pgrp, sid int
	state                byte
}

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// pid (comm) state ppid pgrp session ...; comm may hold spaces and ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 4 || len(f[0]) != 1 {
		return procStat{}, false
	}
	st := procStat{pid: pid, state: f[0][0]}
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgrp, _ = strconv.Atoi(f[2])
	st.sid, _ = strconv.Atoi(f[3])
	return st, true
}

// dead: zombies wait only to be reaped and hold nothing.
func (st procStat) dead() bool { return st.state == 'Z' || st.state == 'X' }

// tree lists the live processes of the session sid and sid's descendants.
func tree(sid int) []procStat {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	all := make(map[int]procStat, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && !st.dead() {
			all[pid] = st
		}
	}
	in := func(st procStat) bool {
		for range 64 { // bounded: ppid chains are short, and a cycle would be a race
			if st.sid == sid || st.pid == sid {
				return true
			}
			parent, ok := all[st.ppid]
			if !ok {
				return false
			}
			st = parent
		}
		return false
	}
	var out []procStat
	for _, st := range all {
		if in(st) {
			out = append(out, st)
		}
	}
	return out
}

func snapshot(sid int) map[int]bool {
	m := make(map[int]bool)
	for _, st := range tree(sid) {
		m[st.pid] = true
	}
	return m
}

// killNew kills the processes of the shell sid that are not in before
// (those a command started), in rounds so that what they fork meanwhile
// goes too, and waits until they are gone or wait has passed.
func killNew(sid int, before map[int]bool, _ *os.File, wait time.Duration) {
	deadline := time.Now().Add(wait)
	for {
		var victims []procStat
		for _, st := range tree(sid) {
			if st.pid != sid && !before[st.pid] {
				victims = append(victims, st)
			}
		}
		if len(victims) == 0 || time.Now().After(deadline) {
			return
		}
		for _, v := range victims {
			signal(v.pid, killSignal)
		}
		time.Sleep(pollInterval)
	}
}

// terminate stops everything of the shell sid, the shell included: the
// stop signals, up to grace for them to exit, then SIGKILL and up to grace
// again.
func terminate(sid int, _ *os.File, grace time.Duration) {
	for _, sigs := range [][]syscall.Signal{stopSignals, {killSignal}} {
		procs := tree(sid)
		if len(procs) == 0 {
			return
		}
		for _, st := range procs {
			for _, sig := range sigs {
				signal(st.pid, sig)
			}
		}
		deadline := time.Now().Add(grace)
		for len(tree(sid)) > 0 && time.Now().Before(deadline) {
			time.Sleep(pollInterval)
		}
	}
}

// canTellExec: commandLine tells when a shell was replaced (exec).
const canTellExec = true

// commandLine is the command line pid runs, its arguments a space apart
// ("" if it cannot be read, or pid is a zombie).
func commandLine(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " ")
}

// ignoresInterrupt reports whether pid ignores SIGINT (trap ” INT): its
// SigIgn mask in /proc.
func ignoresInterrupt(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<(syscall.SIGINT-1)) != 0
		}
	}
	return false
}

// procName is the program pid runs, for messages.
func procName(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
