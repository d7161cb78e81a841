package history

import (
	"slices"
	"strings"
	"testing"
)

func TestMatchExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{`"`, ""},
		{"-", ""},
		{"*", ""},
		{"foo", `"foo"*`},
		{"foo bar", `"foo" "bar"*`},
		{"foo:bar", `"foo bar"*`},
		{`say "hi"`, `"say" "hi"*`},
		{"NEAR( a", `"NEAR" "a"*`},
		{"NOT x OR y", `"NOT" "x" "OR" "y"*`},
		{"read_file -", `"read file"*`},
		{"Café naïve", `"Café" "naïve"*`},
	}
	for _, tt := range tests {
		if got := matchExpr(tt.in); got != tt.want {
			t.Errorf("matchExpr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// searchFixture holds two chats whose words are known.
type searchFixture struct {
	s                *Store
	trip, code       Chat
	hotels, readFile Message
}

func newSearchFixture(t *testing.T) searchFixture {
	t.Helper()
	s := openTest(t)
	f := searchFixture{s: s}
	f.trip = mustChat(t, s, Chat{Title: "Weekend in Lyon"})
	f.code = mustChat(t, s, Chat{Title: "Refactor the parser"})
	mustAppend(t, s, Message{ChatID: f.trip.ID, Role: RoleUser, Text: "Find a hotel near the Saône, a café and a museum"})
	f.hotels = mustAppend(t, s, Message{ChatID: f.trip.ID, Role: RoleAssistant, Text: "Hotels: Hôtel Dieu, Mama Shelter. Hotels hotels everywhere."})
	mustAppend(t, s, Message{ChatID: f.code.ID, Role: RoleUser, Text: "The parser fails on foo:bar and on \"quoted\" input - why?"})
	f.readFile = mustAppend(t, s, Message{ChatID: f.code.ID, Role: RoleAssistant, Text: "Let me look at the file."})
	if err := s.SaveToolCall(t.Context(), ToolCall{ID: "c1", MessageID: f.readFile.ID, Server: "workspace", Tool: "workspace__read_file"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// hitKeys names hits as "chat title/message id or title".
func hitKeys(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		k := h.ChatID + "/"
		if h.MessageID == "" {
			k += "title"
		} else {
			k += h.MessageID
		}
		out = append(out, k)
	}
	return out
}

func TestSearchFinds(t *testing.T) {
	f := newSearchFixture(t)
	tests := []struct {
		name    string
		query   string
		chat    string // every hit is in this chat
		message string // the first hit's message id, when it matters
		snippet string // the first hit's snippet contains this
	}{
		{"word in a message", "museum", f.trip.ID, "", "<mark>museum</mark>"},
		{"title", "lyon", f.trip.ID, "", "Weekend in <mark>Lyon</mark>"},
		{"diacritics either way", "hotel dieu", f.trip.ID, "", "<mark>Hôtel</mark> <mark>Dieu</mark>"},
		{"prefix of the last word", "shel", f.trip.ID, f.hotels.ID, "<mark>Shelter</mark>"},
		{"tool name", "read_file", f.code.ID, f.readFile.ID, "workspace__<mark>read_file</mark>"},
		{"server name", "workspace", f.code.ID, f.readFile.ID, "<mark>workspace</mark>"},
		{"colon as in the text", "foo:bar", f.code.ID, "", "<mark>foo:bar</mark>"},
		{"quotes", `"quoted"`, f.code.ID, "", "<mark>quoted</mark>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := f.s.Search(t.Context(), tt.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatalf("Search(%q) found nothing", tt.query)
			}
			for _, h := range hits {
				if h.ChatID != tt.chat {
					t.Errorf("hit %+v is in the wrong chat", h)
				}
				wantTitle := map[string]string{f.trip.ID: f.trip.Title, f.code.ID: f.code.Title}[h.ChatID]
				if h.Title != wantTitle {
					t.Errorf("hit title = %q, want %q", h.Title, wantTitle)
				}
			}
			if tt.message != "" && hits[0].MessageID != tt.message {
				t.Errorf("first hit = %+v, want message %s", hits[0], tt.message)
			}
			if !strings.Contains(hits[0].Snippet, tt.snippet) {
				t.Errorf("snippet %q lacks %q", hits[0].Snippet, tt.snippet)
			}
		})
	}
}

func TestSearchHostileQueries(t *testing.T) {
	f := newSearchFixture(t)
	for _, q := range []string{
		``, ` `, `"`, `""`, `"unclosed`, `-`, `--x`, `foo:bar`, `title:lyon`, `*`, `a*b*`, `NEAR(`, `NEAR(a b`,
		`(`, `)`, `AND`, `OR OR`, `NOT`, `^x`, `{title}: x`, `'; DROP TABLE chats; --`, `\`, "\x00", "é\u0301",
	} {
		t.Run(q, func(t *testing.T) {
			if _, err := f.s.Search(t.Context(), q, 10); err != nil {
				t.Errorf("Search(%q) = %v, want no error", q, err)
			}
		})
	}
	if hits, err := f.s.Search(t.Context(), "", 10); err != nil || hits != nil {
		t.Errorf("empty query = %v, %v; want no hits", hits, err)
	}
	// Operators are words: "NOT museum" needs the word "not" too, so it
	// finds nothing instead of everything but museums.
	if hits, _ := f.s.Search(t.Context(), "NOT museum", 10); len(hits) != 0 {
		t.Errorf(`"NOT museum" = %v, want no hits`, hitKeys(hits))
	}
	if cs, err := f.s.ListChats(t.Context(), ListOptions{}); err != nil || len(cs) != 2 {
		t.Errorf("chats after hostile queries: %d, %v", len(cs), err)
	}
}

func TestSearchRanksAndLimits(t *testing.T) {
	f := newSearchFixture(t)
	// "hotels" three times beats "hotel" once in a longer text.
	hits, err := f.s.Search(t.Context(), "hotel", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].MessageID != f.hotels.ID {
		t.Fatalf("hits = %+v, want the hotels message first of two", hits)
	}
	if !(hits[0].Rank > hits[1].Rank) {
		t.Errorf("ranks %v, %v: want the first higher", hits[0].Rank, hits[1].Rank)
	}
	// A title outranks a message with the word once.
	mustAppend(t, f.s, Message{ChatID: f.code.ID, Role: RoleUser, Text: "what about Lyon?"})
	hits, _ = f.s.Search(t.Context(), "lyon", 10)
	if len(hits) != 2 || hits[0].MessageID != "" || hits[0].ChatID != f.trip.ID {
		t.Errorf("lyon: %v, want the trip title first", hitKeys(hits))
	}
	if hits, _ := f.s.Search(t.Context(), "hotel", 1); len(hits) != 1 {
		t.Errorf("limit 1 gave %d hits", len(hits))
	}
}

func TestSearchFollowsChanges(t *testing.T) {
	f := newSearchFixture(t)
	ctx := t.Context()
	find := func(q string) []string {
		t.Helper()
		hits, err := f.s.Search(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		return hitKeys(hits)
	}
	m := mustAppend(t, f.s, Message{ChatID: f.code.ID, Role: RoleAssistant, Status: StatusIncomplete})
	m.Text, m.Status = "The tokenizer drops zanzibar", StatusComplete
	if err := f.s.UpdateMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if got, want := find("zanzibar"), []string{f.code.ID + "/" + m.ID}; !slices.Equal(got, want) {
		t.Errorf("after UpdateMessage: %v, want %v", got, want)
	}
	if err := f.s.RenameChat(ctx, f.trip.ID, "Paris trip"); err != nil {
		t.Fatal(err)
	}
	if got := find("lyon"); len(got) != 0 {
		t.Errorf("old title still found: %v", got)
	}
	if got, want := find("paris"), []string{f.trip.ID + "/title"}; !slices.Equal(got, want) {
		t.Errorf("new title: %v, want %v", got, want)
	}
	if err := f.s.SaveToolCall(ctx, ToolCall{ID: "c1", MessageID: f.readFile.ID, Server: "workspace", Tool: "workspace__write_file"}); err != nil {
		t.Fatal(err)
	}
	if got := find("read_file"); len(got) != 0 {
		t.Errorf("renamed tool still found: %v", got)
	}
	if got := find("write_file"); len(got) != 1 {
		t.Errorf("new tool name: %v, want one hit", got)
	}
	if _, err := f.s.db.ExecContext(ctx, `INSERT INTO search (search) VALUES ('integrity-check')`); err != nil {
		t.Errorf("search index integrity check: %v", err)
	}
}
