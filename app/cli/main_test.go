package cli

import (
	"os"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets/secretstest"
)

// TestMain keeps every test of this package away from the user's keyring.
func TestMain(m *testing.M) {
	if os.Getenv(realKeyring) != "1" {
		secretstest.UseMockKeyring()
	}
	os.Exit(m.Run())
}
