//go:build linux

package secrets

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// envNoBus holds, in the child run, an empty directory standing in for
// /run/user/UID.
const envNoBus = "SWITCHBOARD_TEST_NO_BUS"

// TestNoSessionBusLaunchesNothing runs the store in a child process without
// a session bus (DBUS_SESSION_BUS_ADDRESS unset, no user bus) and with a fake
// dbus-launch first on PATH that records being run. Every call must say
// there is no keyring, and no bus may be launched: the D-Bus library's
// autolaunch used to leave a dbus-daemon and a gnome-keyring-daemon behind
// after every CLI run.
func TestNoSessionBusLaunchesNothing(t *testing.T) {
	if dir := os.Getenv(envNoBus); dir != "" {
		noBusScenario(t, dir)
		return
	}
	bin := t.TempDir()
	launched := filepath.Join(t.TempDir(), "launched")
	fake := "#!/bin/sh\necho \"dbus-launch $*\" >> '" + launched + "'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestNoSessionBusLaunchesNothing$", "-test.v", "-test.count=1")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") && !strings.HasPrefix(kv, "PATH=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), envNoBus+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoSessionBusLaunchesNothing") {
		t.Fatalf("child run: %v\n%s", err, out)
	}
	if ran, err := os.ReadFile(launched); err == nil {
		t.Fatalf("a session bus was autolaunched:\n%s", ran)
	}
}

func noBusScenario(t *testing.T, dir string) {
	runtimeDir = func() string { return dir }
	for _, addr := range []string{"", "autolaunch:"} {
		if addr != "" {
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
		}
		st := NewStore()
		_, getErr := st.Get("x")
		for call, err := range map[string]error{
			"Available": st.Available(),
			"Get":       getErr,
			"Set":       st.Set("x", "value"),
			"Delete":    st.Delete("x"),
		} {
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no D-Bus session bus") || !strings.Contains(err.Error(), "install and unlock gnome-keyring") {
				t.Errorf("address %q: %s = %v, want ErrUnavailable saying there is no session bus", addr, call, err)
			}
		}
	}
}
