//go:build linux

package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestExec(t *testing.T) {
	cases := []struct {
		name, cmd, out string
		exit           int
	}{
		{"output", "echo hello", "hello\n", 0},
		{"exit status", "sh -c 'exit 7'", "", 7},
		{"stderr is shown", "echo oops >&2; false", "oops\n", 1},
		{"no output", "true", "", 0},
		{"heredoc with tabs", "cat <<'EOF'\n\tindented $HOME\nEOF", "\tindented $HOME\n", 0},
		{"quotes", `printf '%s|%s\n' "a b" 'c"d'`, "a b|c\"d\n", 0},
		{"multi-line script", "for i in 1 2 3; do\n  echo \"n$i\"\ndone", "n1\nn2\nn3\n", 0},
		{"progress bar rewritten", `printf '10%%\r50%%\r100%%\n'`, "100%\n", 0},
		{"escape sequences stripped", `printf '\033[1;31mred\033[0m \033]0;title\007plain\n'`, "red plain\n", 0},
		{"last status of a list", "true; (exit 3)", "", 3},
	}
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					res := run(t, s, c.cmd, 10*time.Second)
					if res.Output != c.out || res.ExitCode != c.exit || res.Cwd != dir || res.TimedOut {
						t.Fatalf("got %+v; want output %q, exit %d, cwd %s", res, c.out, c.exit, dir)
					}
				})
			}
			// A syntax error ends that command only.
			res := run(t, s, `echo "unclosed`, 10*time.Second)
			if res.ExitCode != 2 || !regexp.MustCompile(`unexpected EOF|Unterminated quoted string`).MatchString(res.Output) {
				t.Fatalf("syntax error: %+v", res)
			}
			if res := run(t, s, "echo still here", 10*time.Second); res.Output != "still here\n" {
				t.Fatalf("after a syntax error: %+v", res)
			}
		})
	}
}

func TestSessionKeepsCwdAndVariables(t *testing.T) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			sub := filepath.Join(dir, "sub")
			if res := run(t, s, "cd sub", 10*time.Second); res.Cwd != sub {
				t.Fatalf("cd: %+v", res)
			}
			if res := run(t, s, "pwd", 10*time.Second); res.Output != sub+"\n" {
				t.Fatalf("pwd after cd = %q, want %s", res.Output, sub)
			}
			run(t, s, "export X=1; greet() { echo \"hi $1\"; }", 10*time.Second)
			if res := run(t, s, `echo "X=$X"; greet you`, 10*time.Second); res.Output != "X=1\nhi you\n" {
				t.Fatalf("variable and function = %q", res.Output)
			}
		})
	}
}

func TestTimeoutKillsWhatTheCommandStarted(t *testing.T) {
	fastStops(t)
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			// A job started by an earlier command is not the timed-out command's.
			earlier := pids(t, run(t, s, "sleep 1000 & echo pid:$!", 10*time.Second).Output, 1)[0]
			run(t, s, "cd sub", 10*time.Second)

			cmd := `sleep 1000 & echo pid:$!
(sleep 1000 & echo pid:$!; sleep 1000) & echo pid:$!
sh -c 'echo pid:$$; exec sleep 1000'`
			start := time.Now()
			res := run(t, s, cmd, 500*time.Millisecond)
			if !res.TimedOut || res.Restarted || time.Since(start) > 5*time.Second {
				t.Fatalf("result %+v after %s", res, time.Since(start))
			}
			for _, pid := range pids(t, res.Output, 4) {
				if !gone(pid) {
					t.Errorf("pid %d survived the timeout", pid)
				}
			}
			if gone(earlier) {
				t.Errorf("the earlier job %d was killed too", earlier)
			}
			// The same shell goes on, in the same directory.
			if res := run(t, s, "pwd", 10*time.Second); res.Output != filepath.Join(dir, "sub")+"\n" {
				t.Fatalf("after timeout: %+v", res)
			}
		})
	}
}

func TestTimeoutInTheShellItself(t *testing.T) {
	fastStops(t)
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			pid := s.PID()
			res := run(t, s, "cd sub; echo looping; while :; do :; done", 300*time.Millisecond)
			if !res.TimedOut || res.Restarted || res.ExitCode != -1 || res.Output != "looping\n" {
				t.Fatalf("loop: %+v", res)
			}
			res = run(t, s, "pwd", 10*time.Second)
			if res.Output != filepath.Join(dir, "sub")+"\n" || s.PID() != pid {
				t.Fatalf("after ^C: %+v (pid %d, was %d)", res, s.PID(), pid)
			}
		})
	}
}

func TestUnresponsiveShellIsReplaced(t *testing.T) {
	fastStops(t)
	s, dir := start(t, "bash")
	old := s.PID()
	res := run(t, s, "cd sub; trap '' INT; while :; do :; done", 300*time.Millisecond)
	if !res.TimedOut || !res.Restarted {
		t.Fatalf("result %+v", res)
	}
	if !gone(old) {
		t.Fatalf("old shell %d still runs", old)
	}
	res = run(t, s, "pwd", 10*time.Second)
	if res.Output != dir+"\n" || s.PID() == old || s.PID() == 0 {
		t.Fatalf("new shell: %+v, pid %d", res, s.PID())
	}
}

func TestContextCancelStopsCommand(t *testing.T) {
	fastStops(t)
	s, _ := start(t, "bash")
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	res, err := s.Exec(ctx, "sh -c 'echo pid:$$; exec sleep 1000'", time.Minute)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if pid := pids(t, res.Output, 1)[0]; !gone(pid) {
		t.Fatalf("pid %d survived cancellation", pid)
	}
}

func TestOutputCapAndSlowSubscriber(t *testing.T) {
	mo, sb := MaxOutput, SubscriberBytes
	MaxOutput, SubscriberBytes = 4096, 8192
	t.Cleanup(func() { MaxOutput, SubscriberBytes = mo, sb })
	s, _ := start(t, "bash")
	ch, cancel := s.Subscribe() // never read while the command runs
	defer cancel()
	res := run(t, s, "echo BEGIN; head -c 200000 /dev/zero | tr '\\0' x; echo; echo END", 30*time.Second)
	if res.OmittedBytes < 190000 || !strings.HasPrefix(res.Output, "BEGIN\nxxx") || !strings.HasSuffix(res.Output, "xxx\nEND\n") ||
		!strings.Contains(res.Output, "bytes of output omitted") || len(res.Output) > MaxOutput+300 {
		t.Fatalf("capped output: %d bytes, omitted %d: %.200q ... %q", len(res.Output), res.OmittedBytes, res.Output, res.Output[max(0, len(res.Output)-100):])
	}
	// The subscriber's backlog was coalesced and bounded (one read's worth
	// may already have been on its way), newest kept.
	if got := waitFor(t, ch, "END"); len(got) > SubscriberBytes+32<<10 {
		t.Fatalf("subscriber got %d bytes, more than its bound", len(got))
	}
}

func TestSubscribersSeeRawOutputOfModelCommands(t *testing.T) {
	s, _ := start(t, "bash")
	ch, cancel := s.Subscribe()
	defer cancel()
	res := run(t, s, `printf '\033[1;31mred\033[0m plain\n'`, 10*time.Second)
	if res.Output != "red plain\n" {
		t.Fatalf("model output = %q", res.Output)
	}
	raw := waitFor(t, ch, "\x1b[1;31mred\x1b[0m plain")
	// The typed line shows the command to a person watching, without the
	// marker function and id it is typed with.
	if !strings.Contains(raw, "(model) printf") || strings.Contains(raw, "__sb") {
		t.Fatalf("terminal did not show the command as the model's: %q", raw)
	}
	if history := string(s.Scrollback()); !strings.Contains(history, "(model) printf") || strings.Contains(history, "__sb") {
		t.Fatalf("scrollback: %q", history)
	}
}

// A command's errors read as for a line typed at the prompt: the private
// file the shell sources it from is named neither to the model nor in the
// terminal.
func TestErrorsNameNoPrivateFile(t *testing.T) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, _ := start(t, sh)
			ch, cancel := s.Subscribe()
			defer cancel()
			for _, c := range []struct{ command, want string }{
				{"nosuchcmd_x", "nosuchcmd_x"},
				{"echo (", "yntax error"},
			} {
				res := run(t, s, c.command, 10*time.Second)
				if !strings.Contains(res.Output, c.want) || strings.Contains(res.Output, "switchboard-shell-") || strings.Contains(res.Output, ".sh:") {
					t.Fatalf("%q: %q", c.command, res.Output)
				}
			}
			run(t, s, "echo end-$((1+1))", 10*time.Second)
			if raw := waitFor(t, ch, "end-2"); strings.Contains(raw, "switchboard-shell-") {
				t.Fatalf("terminal: %q", raw)
			}
		})
	}
}

func TestUserKeystrokesRunInTheModelsShell(t *testing.T) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, _ := start(t, sh)
			if err := s.Write([]byte("export FROM_USER=typed-by-user\r")); err != nil {
				t.Fatal(err)
			}
			if res := run(t, s, `echo "$FROM_USER"`, 10*time.Second); res.Output != "typed-by-user\n" {
				t.Fatalf("output = %q", res.Output)
			}
			// Text typed but not entered is cleared before the model's command.
			if err := s.Write([]byte("echo half-typed")); err != nil {
				t.Fatal(err)
			}
			if res := run(t, s, "echo mine", 10*time.Second); res.Output != "mine\n" {
				t.Fatalf("output = %q", res.Output)
			}
		})
	}
}

// The user's cd in the shared terminal does not move the model's commands,
// and the model's cd does not move the user's prompt: each goes on where
// it left off, both seeing every command.
func TestModelAndUserKeepTheirOwnDirectory(t *testing.T) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			ch, cancel := s.Subscribe()
			defer cancel()
			if err := s.Write([]byte("cd /\r")); err != nil {
				t.Fatal(err)
			}
			if res := run(t, s, "pwd", 10*time.Second); res.Output != dir+"\n" || res.Cwd != dir {
				t.Fatalf("model's first command after the user's cd / ran in %q (cwd %q), want the workspace %s", res.Output, res.Cwd, dir)
			}
			if res := run(t, s, "cd sub", 10*time.Second); res.Cwd != filepath.Join(dir, "sub") {
				t.Fatalf("cd sub: %+v", res)
			}
			if err := s.Write([]byte("echo user-in-$PWD-now\r")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ch, "user-in-/-now")
			if res := run(t, s, "pwd", 10*time.Second); res.Output != filepath.Join(dir, "sub")+"\n" {
				t.Fatalf("model's next command ran in %q, want where it left off", res.Output)
			}
			// A new shell starts the model in the workspace again.
			run(t, s, "exit 0", 10*time.Second)
			if res := run(t, s, "pwd", 10*time.Second); res.Output != dir+"\n" {
				t.Fatalf("after a new shell the model is in %q, want the workspace", res.Output)
			}
		})
	}
}

func TestEnvironmentIsMinimal(t *testing.T) {
	t.Setenv("SECRET_X", "hunter2")
	s, err := Start("env", Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeSession(t, s) })
	res := run(t, s, `echo "[$SECRET_X]"; env | grep -c hunter2; echo "$TERM"`, 10*time.Second)
	if res.Output != "[]\n0\nxterm-256color\n" {
		t.Fatalf("output = %q", res.Output)
	}
	res = run(t, s, `env | cut -d= -f1 | sort | tr '\n' ' '`, 10*time.Second)
	for _, name := range strings.Fields(res.Output) {
		switch name {
		case "PATH", "HOME", "USER", "LANG", "TERM", "SHELL", "PWD", "OLDPWD", "SHLVL", "_":
		default:
			t.Errorf("unexpected variable %s in the shell's environment", name)
		}
	}
}

func TestBusyWhileTerminalRunsAProgram(t *testing.T) {
	s, _ := start(t, "bash")
	ch, cancel := s.Subscribe()
	defer cancel()
	// $((...)) makes the awaited text differ from the echo of the typed line.
	if err := s.Write([]byte("sh -c 'echo $((40+2))-ready; exec sleep 1000'; echo $((2+3))-back\r")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ch, "42-ready") // sh prints it, then becomes sleep
	_, err := s.Exec(t.Context(), "echo hi", 10*time.Second)
	var busy *BusyError
	if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) || (busy.Program != "sh" && busy.Program != "sleep") || !strings.Contains(err.Error(), "use another session") {
		t.Fatalf("err = %v", err)
	}
	if err := syscall.Kill(busy.PID, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ch, "5-back") // the shell has the terminal back
	if res := run(t, s, "echo free", 10*time.Second); res.Output != "free\n" {
		t.Fatalf("output = %q", res.Output)
	}
}

func TestShellExitStartsANewShell(t *testing.T) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			ch, cancel := s.Subscribe()
			defer cancel()
			old := s.PID()
			res := run(t, s, "cd sub; echo bye; exit 3", 10*time.Second)
			if !res.ShellExited || res.ExitCode != 3 || res.Output != "bye\n" {
				t.Fatalf("exit: %+v", res)
			}
			waitFor(t, ch, "[shell exited (exit status 3)")
			res = run(t, s, "pwd", 10*time.Second)
			if res.Output != dir+"\n" || s.PID() == old {
				t.Fatalf("next command: %+v", res)
			}
		})
	}
}

func TestResize(t *testing.T) {
	s, _ := start(t, "bash")
	if err := s.Resize(50, 100); err != nil {
		t.Fatal(err)
	}
	if res := run(t, s, "stty size", 10*time.Second); res.Output != "50 100\n" {
		t.Fatalf("stty size = %q", res.Output)
	}
	if err := s.Resize(0, 80); err == nil {
		t.Fatal("zero rows accepted")
	}
}

func TestAttachReplaysHistoryOnce(t *testing.T) {
	s, _ := start(t, "bash")
	run(t, s, "echo first-$((1+1))", 10*time.Second)
	history, ch, cancel := s.Attach()
	defer cancel()
	if !strings.Contains(string(history), "first-2") || !strings.Contains(string(s.Scrollback()), "first-2") {
		t.Fatalf("history = %q", history)
	}
	run(t, s, "echo second-$((1+1))", 10*time.Second)
	if live := waitFor(t, ch, "second-2"); strings.Contains(live, "first-2") {
		t.Fatalf("live output repeats the history: %q", live)
	}
}

func TestConcurrentExecsTakeTurns(t *testing.T) {
	s, _ := start(t, "bash")
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Go(func() {
			res, err := s.Exec(t.Context(), "sleep 0.05; echo n$((10+"+string(rune('0'+i))+"))", 10*time.Second)
			if err != nil {
				t.Error(err)
			}
			outs[i] = res.Output
		})
	}
	wg.Wait()
	for i, out := range outs {
		if want := "n1" + string(rune('0'+i)) + "\n"; out != want {
			t.Errorf("exec %d output %q, want %q", i, out, want)
		}
	}
}

func TestCloseLeavesNoProcesses(t *testing.T) {
	fastStops(t)
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, err := Start("close", Options{Dir: t.TempDir(), Shell: shellPath(t, sh)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { closeSession(t, s) }) // if the test fails before its own Close
			ch, cancel := s.Subscribe()
			defer cancel()
			out := run(t, s, `sleep 1000 & echo pid:$!
nohup sleep 1000 >/dev/null 2>&1 & echo pid:$!
(trap '' HUP TERM; exec sleep 1000) & echo pid:$!`, 10*time.Second).Output
			all := append(pids(t, out, 3), s.PID())
			if err := s.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, pid := range all {
				if !gone(pid) {
					t.Errorf("pid %d survived Close", pid)
				}
			}
			for range ch { // closed by Close
			}
			if _, err := s.Exec(t.Context(), "true", time.Second); !errors.Is(err, ErrClosed) {
				t.Fatalf("exec after close: %v", err)
			}
			if err := s.Write([]byte("x")); !errors.Is(err, ErrClosed) {
				t.Fatalf("write after close: %v", err)
			}
			if err := s.Close(t.Context()); err != nil {
				t.Fatalf("second close: %v", err)
			}
		})
	}
}

func TestEmptyCommand(t *testing.T) {
	s, _ := start(t, "bash")
	if _, err := s.Exec(t.Context(), " \n ", time.Second); !errors.Is(err, ErrEmptyCommand) {
		t.Fatalf("err = %v", err)
	}
}

func TestNoShellOnPath(t *testing.T) {
	dir := t.TempDir()
	_, err := Start("x", Options{Dir: t.TempDir(), Env: []string{"PATH=" + dir}})
	var se *StartError
	if want := "no shell found: neither bash nor sh is on the PATH (" + dir + "); install one or fix the PATH"; !errors.Is(err, ErrNoShell) || !errors.As(err, &se) || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// A command that makes the shell ignore SIGINT cannot go on once it is
// stopped: the shell is replaced before it runs another statement.
func TestShellIgnoringInterruptIsReplaced(t *testing.T) {
	fastStops(t)
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			old := s.PID()
			res := run(t, s, "cd sub; trap '' INT; echo start; sleep 20; echo trapped > after.txt; echo trapped", 300*time.Millisecond)
			if !res.TimedOut || !res.Restarted || !res.IgnoredInterrupt || res.ExitCode != -1 || res.Output != "start\n" {
				t.Fatalf("result %+v", res)
			}
			if !gone(old) {
				t.Fatalf("old shell %d still runs", old)
			}
			// The new shell starts in the workspace; the old one wrote nothing more.
			if res := run(t, s, "pwd; ls sub", 10*time.Second); res.Output != dir+"\n" {
				t.Fatalf("after: %q", res.Output)
			}
		})
	}
}

// A command that traps SIGINT with a handler of its own goes on to its
// end when interrupted; its result says so with its exit code (not -1).
func TestShellTrappingInterruptRunsOn(t *testing.T) {
	fastStops(t)
	s, _ := start(t, "bash")
	res := run(t, s, "trap 'echo caught' INT; echo start; sleep 20; echo after; trap - INT", 300*time.Millisecond)
	if !res.TimedOut || res.Restarted || res.ExitCode != 0 || !strings.Contains(res.Output, "after\n") {
		t.Fatalf("result %+v", res)
	}
}

// A command that replaces the shell with another shell would leave the
// model waiting for its timeout: the session starts a new shell at once.
// Replaced by another program, it runs until the timeout, then the same.
func TestExecReplacingTheShell(t *testing.T) {
	fastStops(t)
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			old := s.PID()
			res := run(t, s, "cd sub; exec bash --norc", time.Minute)
			if res.TimedOut || !res.Restarted || res.Replaced != "bash --norc" || res.ExitCode != -1 {
				t.Fatalf("exec bash: %+v", res)
			}
			if !gone(old) || s.PID() == old {
				t.Fatalf("old shell %d still runs (now %d)", old, s.PID())
			}
			if res := run(t, s, "pwd", 10*time.Second); res.Output != dir+"\n" {
				t.Fatalf("after: %+v", res)
			}
			res = run(t, s, "exec sleep 1000", 300*time.Millisecond)
			if !res.TimedOut || !res.Restarted || res.Replaced != "sleep 1000" {
				t.Fatalf("exec sleep: %+v", res)
			}
			if res := run(t, s, "echo back", 10*time.Second); res.Output != "back\n" {
				t.Fatalf("after: %+v", res)
			}
		})
	}
}

// A shell the user replaced in the terminal (exec bash) is not typed into
// by the model: Exec says what runs there instead.
func TestExecRefusesAShellReplacedInTheTerminal(t *testing.T) {
	s, _ := start(t, "bash")
	ch, cancel := s.Subscribe()
	defer cancel()
	if err := s.Write([]byte("exec sh -c 'echo $((40+2))-replaced; exec cat'\r")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ch, "42-replaced")
	// The line is printed before sh's own exec: wait for cat to be the
	// program, as a user's next look at the terminal would find it.
	p, err := s.current()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.HasPrefix(commandLine(p.pid), "cat"); {
		if time.Now().After(deadline) {
			t.Fatalf("the shell's process runs %q, not cat", commandLine(p.pid))
		}
		time.Sleep(10 * time.Millisecond) // polling /proc: there is no event for an exec
	}
	_, err = s.Exec(t.Context(), "echo hi", 10*time.Second)
	var busy *BusyError
	if !errors.As(err, &busy) || !strings.Contains(err.Error(), ", which replaced the shell (exec), (pid") || !strings.Contains(err.Error(), "cat") {
		t.Fatalf("err = %v", err)
	}
}

// Keys typed after the shell exited start a new one and show after its
// prompt, not before it.
func TestKeysAfterExitFollowTheNewPrompt(t *testing.T) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, _ := start(t, sh)
			ch, cancel := s.Subscribe()
			defer cancel()
			if err := s.Write([]byte("exit\r")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ch, "a command or a key starts a new one]")
			if err := s.Write([]byte("echo $((6*7))-typed\r")); err != nil {
				t.Fatal(err)
			}
			raw := waitFor(t, ch, "42-typed")
			prompt, typed := strings.Index(raw, promptMarker), strings.Index(raw, "echo $((6*7))")
			if prompt < 0 || typed < prompt {
				t.Fatalf("the typed line came before the prompt: %q", raw)
			}
		})
	}
}

// A command stopped by its timeout or by its caller runs no further
// statement: not the rest of its line, not the next lines of its script,
// builtins included. The same shell then goes on where the command was
// stopped, with its variables.
func TestStoppedCommandRunsNothingMore(t *testing.T) {
	fastStops(t)
	scripts := []string{
		"echo start; sleep 20; echo ran > after.txt",
		"echo start\nsleep 20\necho ran > after.txt",
		"echo start; sleep 20; rm -f victim.txt",
		"echo start; sh -c 'trap \"\" INT; exec sleep 20'; echo ran > after.txt",
		"echo start; for i in 1 2; do sleep 20; done; echo ran > after.txt",
		"echo start; while :; do :; done; echo ran > after.txt",
	}
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			sub := filepath.Join(dir, "sub")
			run(t, s, "cd sub; KEPT=yes; : > victim.txt", 10*time.Second)
			for i, script := range scripts {
				stopped := func() (Result, error) { return s.Exec(t.Context(), script, 300*time.Millisecond) }
				if i%2 == 1 { // the caller gives up instead
					stopped = func() (Result, error) {
						ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
						defer cancel()
						return s.Exec(ctx, script, time.Minute)
					}
				}
				res, err := stopped()
				// The output is the command's: not the prompt the shell printed once
				// it gave the command up.
				if (err == nil) == (i%2 == 1) || res.ExitCode != -1 || res.Restarted ||
					!strings.HasPrefix(res.Output, "start\n") || strings.Contains(res.Output, "$ ") || strings.Contains(res.Output, dir) {
					t.Fatalf("%q: %+v, %v", script, res, err)
				}
				// The shell runs one thing at a time: whatever the stopped
				// script would still do has happened once this ran.
				res = run(t, s, `ls; echo "$KEPT"; pwd`, 10*time.Second)
				if want := "victim.txt\nyes\n" + sub + "\n"; res.Output != want {
					t.Fatalf("after %q: %q, want %q", script, res.Output, want)
				}
			}
		})
	}
}

// The model's working directory survives any byte in its name: newlines
// (the next command's cd), a BEL (ends the markers), quotes, an escape
// sequence, bytes that are not UTF-8.
func TestCwdWithAnyByte(t *testing.T) {
	names := []string{"d1-nl\ndir", "d2-bel\adir", "d3-trailing\n", "d4-'q\"$x`\\ *", "d5-\xff\x1b]7770;E;x;0\a"}
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			s, dir := start(t, sh)
			for i, name := range names {
				sub := filepath.Join(dir, name)
				if err := os.Mkdir(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(sub, "inside.txt"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
				run(t, s, "cd "+dir, 10*time.Second)
				if res := run(t, s, fmt.Sprintf("cd d%d-*", i+1), 10*time.Second); res.Cwd != sub || res.ExitCode != 0 {
					t.Fatalf("cd into %q: %+v", name, res)
				}
				if res := run(t, s, "ls", 10*time.Second); res.Output != "inside.txt\n" || res.Cwd != sub {
					t.Fatalf("next command after cd into %q: %+v", name, res)
				}
			}
		})
	}
}
