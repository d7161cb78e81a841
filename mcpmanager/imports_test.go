package mcpmanager

import (
	"os/exec"
	"strings"
	"testing"
)

// Imports point down (DESIGN.md): nothing under mcpmanager/ or builtin/
// may import app/, which holds the product built on top of them. The
// client's version, say, comes in through Options.ClientInfo.
func TestNoImportOfApp(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list imports: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), goBin, "list", "-e", "-deps", "./mcpmanager/...", "./builtin/...")
	cmd.Dir = ".." // the module root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 20 || !strings.Contains(string(out), "/mcpmanager/supervisor\n") {
		t.Fatalf("go list listed too little: %q", out)
	}
	for _, p := range pkgs {
		if strings.HasPrefix(p, "github.com/switchboard-app/switchboard/app") {
			t.Errorf("%s is imported from mcpmanager/ or builtin/", p)
		}
	}
}
