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

// TranslateSchema is ToolSchema without its cache, for tests that
// translate twice.
var TranslateSchema = translate
