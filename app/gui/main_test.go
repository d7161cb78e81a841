package gui

import (
	"os"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets/secretstest"
)

// TestMain keeps every test of this package away from the user's keyring.
func TestMain(m *testing.M) {
	secretstest.UseMockKeyring()
	os.Exit(m.Run())
}
