package host

import (
	"slices"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// TestOwners: an exposed name is owned by the servers whose sanitized name
// is its prefix, which is how the CLI picks the servers to start.
func TestOwners(t *testing.T) {
	list := []config.Server{{Name: "gh"}, {Name: "gh.enterprise"}, {Name: "files"}}
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"gh__issues", []string{"gh"}},
		{"gh_enterprise__issues", []string{"gh.enterprise"}},
		{"files__read", []string{"files"}},
		{"read", nil},
	} {
		if got := Owners(tt.name, list); !slices.Equal(got, tt.want) {
			t.Errorf("Owners(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
