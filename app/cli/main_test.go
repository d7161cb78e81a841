package cli

import (
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestMain keeps every test of this package away from the user's keyring.
func TestMain(m *testing.M) {
	if os.Getenv(realKeyring) != "1" {
		keyring.MockInit()
	}
	os.Exit(m.Run())
}
