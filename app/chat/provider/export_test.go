package provider

import (
	"context"
	"testing"
	"time"
)

// SetSleep replaces the wait between retries for the rest of the test.
func SetSleep(t testing.TB, f func(context.Context, time.Duration) error) {
	t.Helper()
	old := sleep
	sleep = f
	t.Cleanup(func() { sleep = old })
}
