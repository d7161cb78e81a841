package toolsearch_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
)

var update = flag.Bool("update", false, "rewrite the form corpus (frontend/src/testdata/tool-schemas.json) from the real servers' tools")

// formCorpus is where the frontend's form corpus test reads the real tools'
// input schemas: every one must render as a form (SchemaForm.corpus.test.tsx).
const formCorpus = "../../../frontend/src/testdata/tool-schemas.json"

// checkFormCorpus writes the listed tools' names and input schemas to the
// form corpus with -update, and otherwise fails when the corpus is not what
// the servers list today (a package upgrade changed a schema), so the
// frontend is tested against the schemas the pinned servers really send.
func checkFormCorpus(t *testing.T, tools []toolsearch.Tool) {
	t.Helper()
	tools = slices.Clone(tools)
	slices.SortFunc(tools, func(a, b toolsearch.Tool) int { return strings.Compare(a.Name, b.Name) })
	// One tool a line keeps a schema change a one-line diff.
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, tl := range tools {
		var schema bytes.Buffer
		if err := json.Compact(&schema, tl.InputSchema); err != nil {
			t.Fatalf("%s: input schema is not JSON: %v", tl.Name, err)
		}
		name, _ := json.Marshal(tl.Name)
		b.WriteString(`{"name":` + string(name) + `,"inputSchema":` + schema.String() + "}")
		if i < len(tools)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	if *update {
		if err := os.WriteFile(formCorpus, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(formCorpus)
	if err != nil {
		t.Fatalf("form corpus: %v (run this test with -update to write it)", err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Errorf("%s is not what the servers list today: run `go test ./app/chat/toolsearch -run TestFindToolsAcrossRealServers -update` and commit it", formCorpus)
	}
}
