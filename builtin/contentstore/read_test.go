package contentstore

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestReadIsBoundedInBytes: a read returns at most MaxReadBytes of text.
// Whole lines that fit come back (Next says the line to read on from); a
// line longer than that comes back in parts cut at a character, read on
// with fromChar; put together, the parts are the document. A 10 MB line
// used to come back whole (twice, with structuredContent), over what MCP
// clients accept in one message.
func TestReadIsBoundedInBytes(t *testing.T) {
	opts := testOptions(t.TempDir())
	opts.MaxFileBytes = 4 << 20
	s := openStores(t, opts)
	ctx := t.Context()
	info, err := s.Create(ctx, "Long", "", "")
	if err != nil {
		t.Fatal(err)
	}
	// One line of 600 KB whose characters are 1, 2 and 3 bytes long, so a
	// cut can fall inside one.
	long := strings.Repeat("aé€", 600<<10/6)
	lines := make([]string, 400)
	for i := range lines {
		lines[i] = fmt.Sprintf("%04d %s", i+1, strings.Repeat("x", 1000))
	}
	text := "first\n" + long + "\n" + strings.Join(lines, "\n") + "\n"
	res, err := s.Add(ctx, info.ID, Input{Text: text, Title: "long"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Contents[0].ID

	// Line 1 fits; line 2 does not fit after it: the read stops before it.
	ex, err := s.Read(ctx, id, 1, 0)
	if err != nil || ex.Text != "first" || ex.ToLine != 1 || !ex.More || ex.Next == nil || *ex.Next != (Position{FromLine: 2}) ||
		!strings.Contains(ex.Note, "a read returns at most 256.0 KB; call readContent with fromLine=2") {
		t.Fatalf("read from 1 = %+v, %v", ex, err)
	}
	// Line 2 alone is longer than a read: it comes in parts.
	var got strings.Builder
	at := Position{FromLine: 2}
	for parts := 0; ; parts++ {
		ex, err := s.ReadRange(ctx, Range{ContentID: id, FromLine: at.FromLine, FromChar: at.FromChar, ToLine: 2})
		if err != nil || len(ex.Text) > MaxReadBytes || parts > 5 {
			t.Fatalf("part %d at %+v = %d bytes, %v", parts, at, len(ex.Text), err)
		}
		got.WriteString(ex.Text)
		if ex.Next == nil || ex.Next.FromLine != 2 {
			if ex.More != (ex.Next != nil) {
				t.Fatalf("more %v with next %+v", ex.More, ex.Next)
			}
			break
		}
		if !strings.Contains(ex.Note, fmt.Sprintf("line 2 goes on: a read returns at most 256.0 KB; call readContent with fromLine=2 and fromChar=%d", ex.Next.FromChar)) {
			t.Fatalf("note %q", ex.Note)
		}
		at = *ex.Next
	}
	if got.String() != long {
		t.Fatalf("the parts of line 2 are %d bytes, not the line's %d", got.Len(), len(long))
	}
	// 400 lines of 1 KB: as many whole lines as fit in 256 KB.
	ex, err = s.Read(ctx, id, 3, 0)
	if err != nil || len(ex.Text) > MaxReadBytes || ex.ToLine < 200 || ex.ToLine > 300 || ex.Next.FromLine != ex.ToLine+1 ||
		!strings.HasSuffix(ex.Text, lines[ex.ToLine-3]) {
		t.Fatalf("read from 3: to %d, %d bytes, next %+v, %v", ex.ToLine, len(ex.Text), ex.Next, err)
	}
	if _, err := s.ReadRange(ctx, Range{ContentID: id, FromLine: 1, FromChar: 7}); err == nil || !strings.Contains(err.Error(), "fromChar 7 is past the end of line 1, which has 5 characters") {
		t.Fatalf("fromChar past the line: %v", err)
	}

	// The tool sends the text once: structuredContent holds the range
	// without it.
	cl, _ := connect(t, s)
	r, body := call(t, cl, "readContent", map[string]any{"contentId": id, "fromLine": 2}, nil)
	var whole Excerpt
	decode(t, r, body, &whole)
	structured, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var rng Excerpt
	if err := json.Unmarshal(structured, &rng); err != nil {
		t.Fatal(err)
	}
	if len(whole.Text) < MaxReadBytes-2 || len(whole.Text) > MaxReadBytes || strings.Contains(string(structured), `"text"`) ||
		len(structured) > 1000 || rng.Next == nil || *rng.Next != *whole.Next || rng.ToLine != 2 {
		t.Fatalf("readContent: text %d bytes, structuredContent %d bytes: %.300s", len(whole.Text), len(structured), structured)
	}
}
