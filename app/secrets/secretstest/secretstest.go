// Package secretstest sets up the secrets package for tests: go-keyring's
// in-memory keyring instead of the user's, and no session bus needed.
//
//	func TestMain(m *testing.M) {
//		secretstest.UseMockKeyring()
//		os.Exit(m.Run())
//	}
package secretstest

import (
	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/app/secrets"
)

// UseMockKeyring replaces the OS keyring with go-keyring's in-memory one:
// tests never touch the user's keyring and need no session bus. Call it
// from TestMain, before any test runs.
func UseMockKeyring() {
	keyring.MockInit()
	secrets.BusCheck = nil
}
