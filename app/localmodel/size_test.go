package localmodel_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel"
)

// The sizes the CLI prints and the window shows follow one rule: this
// table is the window's formatBytes' test table too
// (frontend/src/components/LocalModels.test.tsx).
func TestSizeSaysWhatTheWindowSays(t *testing.T) {
	b, err := os.ReadFile("testdata/sizes.json")
	if err != nil {
		t.Fatal(err)
	}
	var table [][2]any
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	for _, row := range table {
		n, want := int64(row[0].(float64)), row[1].(string)
		if got := localmodel.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
