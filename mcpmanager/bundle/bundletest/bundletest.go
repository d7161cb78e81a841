// Package bundletest packs MCP Bundles for tests with Anthropic's own mcpb
// CLI (pinned in mcpmanager/bundle/testdata/npm; make test runs npm ci
// there), so the tests read what real bundle authors produce.
package bundletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// Dir is mcpmanager/bundle/testdata.
func Dir() string {
	return filepath.Join(proctest.Root(), "mcpmanager", "bundle", "testdata")
}

// CLI is the pinned mcpb executable.
func CLI(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join(Dir(), "npm", "node_modules", ".bin", "mcpb")
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("the mcpb CLI is not installed: run 'make test' (it runs npm ci in mcpmanager/bundle/testdata/npm): %v", err)
	}
	return p
}

// Pack packs testdata/<example> (echo-env) into a .mcpb file in a temp dir.
func Pack(tb testing.TB, example string) string {
	tb.Helper()
	out := filepath.Join(tb.TempDir(), example+".mcpb")
	cmd := exec.Command(CLI(tb), "pack", filepath.Join(Dir(), example), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("mcpb pack %s: %v\n%s", example, err, b)
	}
	return out
}

// Sign signs a packed bundle in place with a new self-signed certificate
// ("mcpb sign --self-signed").
func Sign(tb testing.TB, bundle string) {
	tb.Helper()
	dir := tb.TempDir()
	cmd := exec.Command(CLI(tb), "sign", "--self-signed", "-c", filepath.Join(dir, "cert.pem"), "-k", filepath.Join(dir, "key.pem"), bundle)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("mcpb sign: %v\n%s", err, b)
	}
}
