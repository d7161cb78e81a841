package localmodel

import "testing"

// The fit depends on it: unknown (0) would always choose the fallback.
func TestAvailableMemoryIsRead(t *testing.T) {
	if m := availableMemory(); m < 64<<20 || m > 1<<50 {
		t.Fatalf("available memory = %d bytes", m)
	}
}
