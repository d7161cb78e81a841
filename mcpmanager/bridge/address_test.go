package bridge

import (
	"regexp"
	"strings"
	"testing"
)

// TestForPaths: where the socket (or pipe) and token are, per platform,
// as data: Linux with and without a runtime dir, a data dir too deep for
// a socket path, macOS, Windows.
func TestForPaths(t *testing.T) {
	long := "/home/someone/" + strings.Repeat("deep/", 20) + "switchboard"
	tests := []struct {
		name       string
		dataDir    string
		env        Env
		wantSocket string // with HASH for the data dir's hash
		wantDir    string
	}{
		{"linux runtime dir", "/home/ann/.config/switchboard", Env{GOOS: "linux", RuntimeDir: "/run/user/1000", TempDir: "/tmp", UID: 1000},
			"/run/user/1000/switchboard-HASH/s", "/run/user/1000/switchboard-HASH"},
		{"linux no runtime dir", "/home/ann/.config/switchboard", Env{GOOS: "linux", TempDir: "/tmp", UID: 1000},
			"/home/ann/.config/switchboard/run/s", "/home/ann/.config/switchboard/run"},
		{"linux data dir too deep", long, Env{GOOS: "linux", TempDir: "/tmp", UID: 1000},
			"/tmp/switchboard-1000-HASH/s", "/tmp/switchboard-1000-HASH"},
		{"macOS", "/Users/ann/Library/Application Support/switchboard", Env{GOOS: "darwin", TempDir: "/var/folders/xy/T/", UID: 501},
			"/Users/ann/Library/Application Support/switchboard/run/s", "/Users/ann/Library/Application Support/switchboard/run"},
		{"macOS too deep", "/Users/ann/" + strings.Repeat("deep/", 20), Env{GOOS: "darwin", TempDir: "/var/folders/xy/T/", UID: 501},
			"/var/folders/xy/T/switchboard-501-HASH/s", "/var/folders/xy/T/switchboard-501-HASH"},
		{"windows", `C:\Users\Ann\AppData\Roaming\switchboard`, Env{GOOS: "windows", TempDir: `C:\Users\Ann\AppData\Local\Temp`},
			`\\.\pipe\switchboard-HASH`, `C:\Users\Ann\AppData\Roaming\switchboard\run`},
	}
	hash := regexp.MustCompile(`[0-9a-f]{12}`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := For(tc.dataDir, tc.env)
			if got := hash.ReplaceAllString(a.Socket, "HASH"); got != tc.wantSocket {
				t.Errorf("socket = %q, want %q", a.Socket, tc.wantSocket)
			}
			if got := hash.ReplaceAllString(a.Dir, "HASH"); got != tc.wantDir {
				t.Errorf("dir = %q, want %q", a.Dir, tc.wantDir)
			}
			if tc.env.GOOS != "windows" && len(a.Socket) > maxSocketPath {
				t.Errorf("socket path %q is %d bytes, over %d", a.Socket, len(a.Socket), maxSocketPath)
			}
		})
	}
	// Two data dirs never share an address; the same one always does.
	env := Env{GOOS: "linux", RuntimeDir: "/run/user/1000"}
	if For("/a", env) == For("/b", env) || For("/a", env) != For("/a/", env) {
		t.Error("addresses must differ by data dir and not by a trailing slash")
	}
}

// TestPipeSDDL: the named pipe's security descriptor, as data: owned by
// the user, a protected DACL (nothing inherited), one entry granting the
// user everything, and no entry for anyone else (Everyone, Authenticated
// Users, the network, anonymous, other SIDs).
func TestPipeSDDL(t *testing.T) {
	const sid = "S-1-5-21-1004336348-1177238915-682003330-1001"
	sddl := PipeSDDL(sid)
	m := regexp.MustCompile(`^O:([^D]+)D:([A-Z]*)((?:\([^)]*\))+)$`).FindStringSubmatch(sddl)
	if m == nil {
		t.Fatalf("%q is not O:owner D:flags(aces)", sddl)
	}
	if m[1] != sid {
		t.Errorf("owner = %q, want the user %q", m[1], sid)
	}
	if !strings.Contains(m[2], "P") {
		t.Errorf("DACL flags %q lack P (protected): inherited entries could admit others", m[2])
	}
	aces := regexp.MustCompile(`\(([^)]*)\)`).FindAllStringSubmatch(m[3], -1)
	if len(aces) != 1 {
		t.Fatalf("%d ACEs in %q, want exactly one (the user)", len(aces), sddl)
	}
	f := strings.Split(aces[0][1], ";")
	if len(f) != 6 || f[0] != "A" || f[2] != "GA" || f[5] != sid {
		t.Errorf("ACE %q: want (A;;GA;;;%s): allow, generic all, the user", aces[0][1], sid)
	}
	for _, other := range []string{"WD", "AU", "NU", "AN", "BU", "IU", "S-1-1-0"} {
		if strings.Contains(sddl, ";"+other+")") {
			t.Errorf("%q grants %s", sddl, other)
		}
	}
}
