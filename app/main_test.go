package app

import (
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestMain keeps every test of this package away from the user's keyring.
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}
