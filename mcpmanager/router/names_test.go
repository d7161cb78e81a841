package router

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// rawHash is the hash Namespace gives a name it had to change.
func rawHash(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])[:6]
}

// TestExposedNamesUnique: tools whose base names collide get distinct,
// deterministic names, and each name reaches the tool it was given for.
func TestExposedNamesUnique(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	long := strings.Repeat("s", 60)
	cases := []struct {
		name    string
		servers map[string][]string // server → tools
		want    map[string]string   // server/tool → exposed name ("" only checks it is unique)
	}{
		{
			// A server named a__b cannot take (and so rename) the name of
			// server a's tool b__c: its own names carry a hash.
			name:    "server__tool split two ways",
			servers: map[string][]string{"a": {"b__c", "d"}, "a__b": {"c"}},
			want: map[string]string{
				"a/b__c": "a__b__c",
				"a__b/c": "a__b__c_" + rawHash("a__b__c"),
				"a/d":    "a__d",
			},
		},
		{
			name: "a suffixed name another tool already has",
			// a's b__c_<hash> is a plain name: both take suffixes of their own.
			servers: map[string][]string{"a": {"b__c", "b__c_" + rawHash("a__b__c")}, "a__b": {"c"}},
			want: map[string]string{
				"a/b__c":                       "a__b__c",
				"a/b__c_" + rawHash("a__b__c"): "",
				"a__b/c":                       "",
			},
		},
		{
			name: "two sanitized names alike",
			// sanitize makes "a.b" a_b, which a server named a_b has: the
			// changed one carries a hash, the plain one keeps its name.
			servers: map[string][]string{"a.b": {"c"}, "a_b": {"c"}},
			want:    map[string]string{"a_b/c": "a_b__c", "a.b/c": "a_b__c_" + rawHash("a.b__c")},
		},
		{
			name:    "names cut to 64",
			servers: map[string][]string{long: {"tool__x"}, long + "__tool": {"x"}},
			want:    map[string]string{long + "/tool__x": "", long + "__tool/x": ""},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var first map[string]string
			// Two registries, servers added in opposite orders: the same names.
			for _, reverse := range []bool{false, true} {
				names := slices.Sorted(func(yield func(string) bool) {
					for s := range tc.servers {
						if !yield(s) {
							return
						}
					}
				})
				if reverse {
					slices.Reverse(names)
				}
				r := New(Options{})
				for _, s := range names {
					r.Add(newSrc(t, s, tc.servers[s]...))
				}
				tools, errs := r.Tools(t.Context())
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				got := map[string]string{}
				seen := map[string]bool{}
				for _, tl := range tools {
					if seen[tl.Name] || !valid.MatchString(tl.Name) {
						t.Errorf("exposed name %q repeated or invalid", tl.Name)
					}
					seen[tl.Name] = true
					got[tl.Server+"/"+tl.Tool.Name] = tl.Name
					// The name leads back to its own server and tool.
					found, err := r.Lookup(t.Context(), tl.Name)
					if err != nil || found.Server != tl.Server || found.Tool.Name != tl.Tool.Name {
						t.Errorf("Lookup(%q) = %s/%s, %v; want %s/%s", tl.Name, found.Server, found.Tool.Name, err, tl.Server, tl.Tool.Name)
					}
					res, err := r.Call(t.Context(), found.Server, found.Tool.Name, map[string]any{"text": tl.Server}, CallOptions{})
					if err != nil || mcptest.Text(res) != tl.Tool.Name+":"+tl.Server {
						t.Errorf("call %s = %v, %v; want %s's %s", tl.Name, res, err, tl.Server, tl.Tool.Name)
					}
				}
				if len(got) != len(tc.want) {
					t.Fatalf("tools = %v, want %d", got, len(tc.want))
				}
				for k, want := range tc.want {
					if want != "" && got[k] != want {
						t.Errorf("%s exposed as %q, want %q", k, got[k], want)
					}
				}
				if first == nil {
					first = got
				} else if fmt.Sprint(first) != fmt.Sprint(got) {
					t.Errorf("names depend on the order servers were added: %v, then %v", first, got)
				}
			}
		})
	}
}

// fake is a Client whose tools/list is a function.
type fake struct {
	Client
	list  func(cursor mcp.Cursor) (*mcp.ListToolsResult, error)
	calls atomic.Int64
}

func (f *fake) ListTools(_ context.Context, req mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	f.calls.Add(1)
	return f.list(req.Params.Cursor)
}

type fakeSrc struct {
	name string
	cl   *fake
}

func (s fakeSrc) Name() string               { return s.name }
func (s fakeSrc) CallTimeout() time.Duration { return 0 }
func (s fakeSrc) Client() (Client, error)    { return s.cl, nil }

func page(cursor mcp.Cursor, names ...string) *mcp.ListToolsResult {
	res := &mcp.ListToolsResult{}
	res.NextCursor = cursor
	for _, n := range names {
		res.Tools = append(res.Tools, mcp.NewTool(n, mcp.WithDescription("the "+n)))
	}
	return res
}

// TestHostileLists: a server listing one name twice keeps the first and is
// reported by name; one whose pages never end is stopped after a bounded
// number of requests with an error naming it.
func TestHostileLists(t *testing.T) {
	old := MaxListPages
	MaxListPages = 20
	t.Cleanup(func() { MaxListPages = old })
	cases := []struct {
		name      string
		list      func(cursor mcp.Cursor) (*mcp.ListToolsResult, error)
		wantTools string // exposed names with descriptions
		wantErr   string
		maxCalls  int64
	}{
		{
			name: "duplicate name",
			list: func(mcp.Cursor) (*mcp.ListToolsResult, error) {
				res := page("", "echo", "dup", "other")
				res.Tools = append(res.Tools, mcp.NewTool("dup", mcp.WithDescription("the impostor")))
				return res, nil
			},
			wantTools: "h__dup=the dup,h__echo=the echo,h__other=the other",
			wantErr:   `h: lists the tool "dup" more than once`,
			maxCalls:  1,
		},
		{
			name: "empty pages forever",
			list: func(cursor mcp.Cursor) (*mcp.ListToolsResult, error) {
				return page(cursor + "x"), nil
			},
			wantErr:  "h: the server's list does not end: still a nextCursor after 20 pages",
			maxCalls: 20,
		},
		{
			name: "cursor repeated",
			list: func(cursor mcp.Cursor) (*mcp.ListToolsResult, error) {
				return page("again", "echo"), nil
			},
			wantErr:  `h: the server's list does not end: it returned the cursor "again" a second time`,
			maxCalls: 2,
		},
		{
			name: "pages that end",
			list: func(cursor mcp.Cursor) (*mcp.ListToolsResult, error) {
				if cursor == "" {
					return page("2", "one"), nil
				}
				return page("", "two"), nil
			},
			wantTools: "h__one=the one,h__two=the two",
			maxCalls:  2,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &fake{list: tc.list}
			r := New(Options{})
			r.Add(fakeSrc{"h", f})
			tools, errs := r.Tools(t.Context())
			var got []string
			for _, tl := range tools {
				got = append(got, tl.Name+"="+tl.Tool.Description)
			}
			if strings.Join(got, ",") != tc.wantTools {
				t.Errorf("tools = %v, want %s", got, tc.wantTools)
			}
			switch {
			case tc.wantErr == "" && len(errs) > 0:
				t.Errorf("errs = %+v", errs)
			case tc.wantErr != "" && (len(errs) != 1 || errs[0].Server != "h" || !strings.HasPrefix(errs[0].Err, tc.wantErr)):
				t.Errorf("errs = %+v, want one for h starting %q", errs, tc.wantErr)
			}
			if n := f.calls.Load(); n > tc.maxCalls {
				t.Errorf("%d tools/list requests, want at most %d", n, tc.maxCalls)
			}
			if _, err := r.ServerTools(t.Context(), "h"); tc.wantTools == "" && !errors.Is(err, ErrPagination) {
				t.Errorf("ServerTools = %v, want ErrPagination", err)
			}
		})
	}
}

// TestDuplicatesKeptWithTheListing: a listing with a name twice is
// deduplicated once while it is cached (every call asks for it), and
// again, from the new listing, once the server lists anew.
func TestDuplicatesKeptWithTheListing(t *testing.T) {
	var impostor atomic.Bool
	impostor.Store(true)
	f := &fake{list: func(mcp.Cursor) (*mcp.ListToolsResult, error) {
		res := page("", "echo", "dup")
		if impostor.Load() {
			res.Tools = append(res.Tools, mcp.NewTool("dup", mcp.WithDescription("the impostor")))
		}
		return res, nil
	}}
	r := New(Options{})
	r.Add(fakeSrc{"h", f})
	first, err := r.ServerTools(t.Context(), "h")
	if err != nil || len(first) != 2 {
		t.Fatalf("ServerTools = %v, %v; want echo and the first dup", first, err)
	}
	again, _ := r.ServerTools(t.Context(), "h")
	if unsafe.SliceData(again) != unsafe.SliceData(first) {
		t.Error("the same cached listing was deduplicated again")
	}
	impostor.Store(false)
	r.Invalidate("h")
	if _, errs := r.Tools(t.Context()); len(errs) != 0 {
		t.Errorf("after the server listed anew without the duplicate: errs = %+v", errs)
	}
	if got, _ := r.ServerTools(t.Context(), "h"); len(got) != 2 || unsafe.SliceData(got) == unsafe.SliceData(first) {
		t.Errorf("after the server listed anew: %v, want its new listing", got)
	}
	if n := f.calls.Load(); n != 2 {
		t.Errorf("%d tools/list requests, want 2", n)
	}
}

// TestLookup: an exposed name from outside resolves once; a name of a
// server that is down says why.
func TestLookup(t *testing.T) {
	r := New(Options{})
	r.Add(newSrc(t, "alpha", "echo"))
	r.Add(&src{name: "broken", err: errors.New("broken: server is not ready (error): exit 1")})
	cases := []struct {
		name, wantServer, wantTool string
		wantErr                    error
		errText                    string
	}{
		{name: "alpha__echo", wantServer: "alpha", wantTool: "echo"},
		{name: "alpha__nope", wantErr: ErrUnknownTool},
		{name: "broken__anything", errText: "exit 1"},
	}
	for _, tc := range cases {
		got, err := r.Lookup(t.Context(), tc.name)
		switch {
		case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
			t.Errorf("Lookup(%s) = %v, want %v", tc.name, err, tc.wantErr)
		case tc.errText != "" && (err == nil || errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), tc.errText)):
			t.Errorf("Lookup(%s) = %v, want the server's own error", tc.name, err)
		case tc.wantServer != "" && (err != nil || got.Server != tc.wantServer || got.Tool.Name != tc.wantTool):
			t.Errorf("Lookup(%s) = %+v, %v", tc.name, got, err)
		}
	}
}

// TestSubscribe: every change to what Tools would return signals a
// subscriber, signals coalesce, and stop ends them.
func TestSubscribe(t *testing.T) {
	r := New(Options{})
	changes, stop := r.Subscribe()
	alpha := newSrc(t, "alpha", "echo")
	expect := func(what string, want bool) {
		t.Helper()
		select {
		case <-changes:
			if !want {
				t.Errorf("%s: unexpected signal", what)
			}
		default:
			if want {
				t.Errorf("%s: no signal", what)
			}
		}
	}
	listChanged := mcp.JSONRPCNotification{Notification: mcp.Notification{Method: string(mcp.MethodNotificationToolsListChanged)}}
	progress := mcp.JSONRPCNotification{Notification: mcp.Notification{Method: string(mcp.MethodNotificationProgress)}}
	steps := []struct {
		what string
		do   func()
		want bool
	}{
		{"nothing yet", func() {}, false},
		{"Add", func() { r.Add(alpha) }, true},
		{"Tools", func() { r.Tools(t.Context()) }, false},
		{"tools/list_changed", func() { r.HandleNotification("alpha", listChanged) }, true},
		{"progress", func() { r.HandleNotification("alpha", progress) }, false},
		{"Invalidate (a restart)", func() { r.Invalidate("alpha") }, true},
		{"two changes, one signal", func() { r.Invalidate("alpha"); r.Invalidate("alpha") }, true},
		{"after the one", func() {}, false},
		{"Remove", func() { r.Remove("alpha") }, true},
		{"stopped", func() { stop(); r.Add(alpha) }, false},
	}
	for _, s := range steps {
		s.do()
		expect(s.what, s.want)
	}
}

// TestListChangedDuringListing: a list the server changes while it is
// being fetched is not cached, so the next listing sees the new one.
func TestListChangedDuringListing(t *testing.T) {
	r := New(Options{})
	var version atomic.Int64
	f := &fake{}
	f.list = func(mcp.Cursor) (*mcp.ListToolsResult, error) {
		if version.Load() == 0 {
			// The server changes its tools and says so before this answer arrives.
			version.Store(1)
			r.HandleNotification("h", mcp.JSONRPCNotification{Notification: mcp.Notification{Method: string(mcp.MethodNotificationToolsListChanged)}})
			return page("", "old"), nil
		}
		return page("", "new"), nil
	}
	r.Add(fakeSrc{"h", f})
	if tools, _ := r.ServerTools(t.Context(), "h"); len(tools) != 1 || tools[0].Name != "old" {
		t.Fatalf("first listing = %+v", tools)
	}
	if tools, _ := r.ServerTools(t.Context(), "h"); len(tools) != 1 || tools[0].Name != "new" {
		t.Fatalf("listing after list_changed = %+v, want the new tool", tools)
	}
}

// TestColdListingJoined: many callers missing the cache at once share one
// tools/list (1,000 calls in flight on a cold cache asked each server
// 1,000 times); a caller that gives up does not fail the others.
func TestColdListingJoined(t *testing.T) {
	r := New(Options{})
	release := make(chan struct{})
	f := &fake{}
	f.list = func(mcp.Cursor) (*mcp.ListToolsResult, error) {
		<-release
		return page("", "one"), nil
	}
	r.Add(fakeSrc{"h", f})

	gaveUp, cancel := context.WithCancel(t.Context())
	quitter := make(chan error, 1)
	go func() {
		_, err := r.ServerTools(gaveUp, "h")
		quitter <- err
	}()
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			tools, err := r.ServerTools(t.Context(), "h")
			if err == nil && (len(tools) != 1 || tools[0].Name != "one") {
				err = fmt.Errorf("tools = %+v", tools)
			}
			errs <- err
		})
	}
	cancel()
	if err := <-quitter; !errors.Is(err, context.Canceled) {
		t.Errorf("the caller that gave up got %v, want context.Canceled", err)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := f.calls.Load(); got != 1 {
		t.Errorf("tools/list asked %d times, want 1", got)
	}
}

// TestNamespaceKeepsTheToolsName: a name over 64 characters is cut in its
// server's part first, so the tool's name and the hash stay; a part that
// sanitizes to nothing reads as server_<hash> (a server, the same for all
// its tools) or as the hash (a tool), not "x"; and every name that fits —
// valid as it is, or with its hash — is exactly what it always was, since
// approval rules, pins and policies are keyed by it.
func TestNamespaceKeepsTheToolsName(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	rep := strings.Repeat
	long76 := rep("get_the_thing_", 5) + "andsix" // 76
	for _, c := range []struct{ server, tool, want string }{
		// Unchanged.
		{"github", "create_issue", "github__create_issue"},
		{"a.b", "c", "a_b__c_" + rawHash("a.b__c")},
		{"a__b", "c", "a__b__c_" + rawHash("a__b__c")},
		{"odd server", "get.user", "odd_server__get_user_" + rawHash("odd server__get.user")},
		{rep("s", 30), rep("t", 32), rep("s", 30) + "__" + rep("t", 32)},
		{"odd-a", long76, "odd-a__" + long76[:50] + "_" + rawHash("odd-a__"+long76)},
		{rep("a", 20), long76, rep("a", 20) + "__" + long76[:35] + "_" + rawHash(rep("a", 20)+"__"+long76)},
		{rep("a", 26) + "__b", rep("t", 32), (rep("a", 26) + "__b__" + rep("t", 32))[:57] + "_" + rawHash(rep("a", 26)+"__b__"+rep("t", 32))},
		// Over 64: the server's part gives way first.
		{rep("l", 80), "echo", rep("l", 51) + "__echo_" + rawHash(rep("l", 80)+"__echo")},
		{rep("s", 40), rep("t", 60), rep("s", 20) + "__" + rep("t", 35) + "_" + rawHash(rep("s", 40)+"__"+rep("t", 60))},
		{"my server " + rep("x", 60), "search_issues", "my_server_" + rep("x", 32) + "__search_issues_" + rawHash("my server "+rep("x", 60)+"__search_issues")},
		// Nothing left of a part.
		{"サーバー", "echo", "server_" + rawHash("サーバー") + "__echo_" + rawHash("サーバー__echo")},
		{"odd-a", "名前を取得", "odd-a__" + rawHash("odd-a__名前を取得")},
		{"データ", "名前", "server_" + rawHash("データ") + "__" + rawHash("データ__名前")},
		{rep("l", 80), "名前", rep("l", 56) + "__" + rawHash(rep("l", 80)+"__名前")},
	} {
		got := Namespace(c.server, c.tool)
		if got != c.want {
			t.Errorf("Namespace(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
		if !valid.MatchString(got) {
			t.Errorf("Namespace(%q, %q) = %q: not a name every provider takes", c.server, c.tool, got)
		}
		if p := Prefix(c.server); len(c.server) <= minServer && !strings.HasPrefix(got, p) {
			t.Errorf("Namespace(%q, %q) = %q does not begin with Prefix %q", c.server, c.tool, got, p)
		}
	}
}
