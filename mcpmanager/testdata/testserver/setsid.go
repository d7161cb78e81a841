package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// serveSetsid serves mode setsid (once the program setsid): a server that leaves its process group and session
// behind: it starts a descendant with setsid (a new session, so a new
// process group too) that ignores SIGTERM and sleeps, prints
// "LEADER DESCENDANT" PIDs on stdout, then behaves as its first argument
// says:
//
//	stdin    exit once stdin closes (the first stage of a stop)
//	stubborn ignore SIGTERM and stdin; only SIGKILL ends it
//	daemon   start the descendant through a child that exits at once, so
//	         it is orphaned before any stop begins (double fork), then as stdin
//
// The descendant exits by itself after five minutes, so a failed test
// leaves nothing behind for long.
func serveSetsid() {
	// Its own modes are its first argument (after -mode setsid, which
	// its re-executed copies are given too).
	mode := "stdin"
	if flag.NArg() > 0 {
		mode = flag.Arg(0)
	}
	switch mode {
	case "sleeper":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		time.Sleep(5 * time.Minute)
		return
	case "middle": // daemon's intermediate child: start the sleeper, report it, exit
		fmt.Println(spawn("sleeper"))
		return
	}
	var pid int
	if mode == "daemon" {
		out, err := exec.Command(os.Args[0], "-mode", "setsid", "middle").Output()
		if err != nil {
			fail(err)
		}
		if pid, err = strconv.Atoi(string(out[:len(out)-1])); err != nil {
			fail(err)
		}
		mode = "stdin"
	} else {
		pid = spawn("sleeper")
	}
	fmt.Printf("%d %d\n", os.Getpid(), pid)
	if mode == "stubborn" {
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(5 * time.Minute)
		return
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// spawn starts this program in mode, in a new session, and returns its PID
// without waiting for it.
func spawn(mode string) int {
	cmd := exec.Command(os.Args[0], "-mode", "setsid", mode)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	return cmd.Process.Pid
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
