package builtin_test

import (
	"testing"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/workspace"
)

func TestReserved(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"content-store", true},
		{"workspace", true},
		{"Workspace", true},
		{" workspace ", true},
		{"CONTENT-STORE", true},
		{"workspace-2", false},
		{"my-workspace", false},
		{"content_store", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := builtin.Reserved(tt.name); got != tt.want {
			t.Errorf("Reserved(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Every built-in's name is reserved: a configured server cannot take it.
func TestBuiltinNamesAreReserved(t *testing.T) {
	for _, def := range []builtin.Server{contentstore.Builtin, workspace.Builtin} {
		if !builtin.Reserved(def.Name) {
			t.Errorf("built-in %q is not reserved", def.Name)
		}
	}
}
