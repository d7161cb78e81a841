package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
)

// A bundle whose signature is another bundle's is refused with the reason
// and exit 2 (it printed one line and exited 0); a reinstall by another
// signer lists the difference and exits 2 until --accept-changes.
func TestServersInstallRefusesABadSignatureAndAsksOnAnotherSigner(t *testing.T) {
	data := t.TempDir()
	plain := bundletest.Pack(t, "echo-env")
	signed := bundletest.Pack(t, "echo-env")
	bundletest.Sign(t, signed)

	// foreign: the unsigned bundle with the signed one's block, made for
	// other bytes (the signed copy is packed again, so its zip differs).
	signedBytes, _ := os.ReadFile(signed)
	other := bundletest.Pack(t, "echo-env")
	otherBytes, _ := os.ReadFile(other)
	otherBytes = append(otherBytes, []byte("x")...) // other bytes than were signed, still a zip
	block := signedBytes[bytes.LastIndex(signedBytes, []byte("MCPB_SIG_V1")):]
	foreign := filepath.Join(t.TempDir(), "foreign.mcpb")
	if err := os.WriteFile(foreign, append(otherBytes, block...), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, e := runIn(t, data, "servers", "install", foreign, "--set", "api_key=k")
	if code != ExitUsage || !strings.Contains(e, "signature does not match it") || strings.Contains(out, "installed") {
		t.Fatalf("foreign signature: exit %d\n%s\n%s", code, out, e)
	}
	if _, err := os.Stat(filepath.Join(data, "bundles", "echo-env")); !os.IsNotExist(err) {
		t.Errorf("files left behind: %v", err)
	}

	if code, _, e := runIn(t, data, "servers", "install", plain, "--set", "api_key=k"); code != 0 {
		t.Fatalf("install: %s", e)
	}
	code, out, e = runIn(t, data, "servers", "install", signed)
	if code != ExitUsage || !strings.Contains(e, "(another signer)") || !strings.Contains(e, "signer now: Signed by") || !strings.Contains(e, "--accept-changes") {
		t.Fatalf("another signer: exit %d\n%s\n%s", code, out, e)
	}
	code, out, e = runIn(t, data, "servers", "install", signed, "--accept-changes")
	if code != 0 || !strings.Contains(out, "reinstalled (was 1.2.0) echo-env") || !strings.Contains(out, "changed signer: Signed by") {
		t.Fatalf("accepted: exit %d\n%s\n%s", code, out, e)
	}
}

// On a terminal, a reinstall by another signer shows the difference and
// asks; "n" installs nothing, "y" installs it.
func TestServersInstallAsksOnATerminal(t *testing.T) {
	data := t.TempDir()
	plain := bundletest.Pack(t, "echo-env")
	signed := bundletest.Pack(t, "echo-env")
	bundletest.Sign(t, signed)
	if code, _, e := runIn(t, data, "servers", "install", plain, "--set", "api_key=k"); code != 0 {
		t.Fatalf("install: %s", e)
	}
	for _, tt := range []struct {
		answer string
		code   int
		out    string
	}{
		{"n\n", ExitUsage, ""},
		{"y\n", 0, "changed signer: Signed by"},
	} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ptmx.WriteString(tt.answer); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := Run(t.Context(), []string{"--data-dir", data, "servers", "install", signed}, Env{Stdin: tty, Stdout: &out, Stderr: &errb})
		ptmx.Close()
		tty.Close()
		e := errb.String()
		if code != tt.code || !strings.Contains(e, "signer now: Signed by") || !strings.Contains(e, "Install it anyway? [y/N]") || !strings.Contains(out.String(), tt.out) {
			t.Errorf("answer %q: exit %d\n%s\n%s", tt.answer, code, out.String(), e)
		}
	}
}
