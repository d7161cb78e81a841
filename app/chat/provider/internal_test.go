package provider

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestToolNamesAreReversibleAndStable(t *testing.T) {
	long := strings.Repeat("x", 200)
	names := []string{
		"files__read_file", // valid: sent as is
		"files__read.file", // a dot
		hashedName("files__read.file", openAINameLimit), // an original that looks like the dot's alias
		"ünï__cödé",
		long,
		long + "y", // same prefix: the hash tells them apart
		"",
		"1password__read",  // a digit first: Gemini refuses it
		"1pass.word__x",    // a digit first and a dot
		"_1password__read", // an original that looks like the first's alias
	}
	for _, limit := range []int{openAINameLimit, anthropicNameLimit} {
		req := Request{}
		for _, n := range names {
			req.Tools = append(req.Tools, Tool{Name: n})
		}
		m := newToolNames(limit, req)
		again := newToolNames(limit, req)
		seen := map[string]string{}
		for _, n := range names {
			w := m.toWire(n)
			if !validName(w, limit) {
				t.Errorf("limit %d: %q → %q, not a valid API name", limit, n, w)
			}
			if prev, dup := seen[w]; dup {
				t.Errorf("limit %d: %q and %q both → %q", limit, prev, n, w)
			}
			seen[w] = n
			if back := m.toOurs(w); back != n {
				t.Errorf("limit %d: %q → %q → %q", limit, n, w, back)
			}
			if w2 := again.toWire(n); w2 != w {
				t.Errorf("limit %d: %q maps to %q, then %q: aliases must not change between turns", limit, n, w, w2)
			}
		}
		if w := m.toWire("files__read_file"); w != "files__read_file" {
			t.Errorf("a valid name was changed to %q", w)
		}
		if got := m.toOurs("never_offered"); got != "never_offered" {
			t.Errorf("an unknown alias came back as %q", got)
		}
	}
}

func TestHistoryCallsAreMappedToo(t *testing.T) {
	req := Request{Messages: []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c", Name: "old.server__gone"}}}}}
	m := newToolNames(openAINameLimit, req)
	w := m.toWire("old.server__gone")
	if !validName(w, openAINameLimit) || m.toOurs(w) != "old.server__gone" {
		t.Fatalf("history call mapped to %q", w)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name   string
		header map[string]string
		want   time.Duration
		given  bool
	}{
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second, true},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond, true},
		{"milliseconds win", map[string]string{"Retry-After": "7", "Retry-After-Ms": "120"}, 120 * time.Millisecond, true},
		{"HTTP date", map[string]string{"Retry-After": now.Add(42 * time.Second).Format(http.TimeFormat)}, 42 * time.Second, true},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{"huge", map[string]string{"Retry-After": "1e30"}, time.Duration(1<<63 - 1), true},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-3"}, 0, false},
		{"none", nil, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			got, given := retryAfter(h, now)
			if got != tc.want || given != tc.given {
				t.Fatalf("retryAfter = %v, %v; want %v, %v", got, given, tc.want, tc.given)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	const key = "sk-secret-key"
	cases := []struct {
		name, body, want string
		status           int
	}{
		{"openai", `{"error":{"message":"Invalid model","type":"invalid_request_error"}}`, "Invalid model", 400},
		{"anthropic", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "Overloaded", 529},
		{"ollama", `{"error":"model \"llama9\" not found, try pulling it first"}`, `model "llama9" not found, try pulling it first`, 404},
		{"vllm", `{"object":"error","message":"max_tokens too large","type":"BadRequestError"}`, "max_tokens too large", 400},
		{"fastapi", `{"detail":"Not authenticated"}`, "Not authenticated", 401},
		{"plain text", "upstream   connect error\n", "upstream connect error", 502},
		{"html", "<html><body>Bad Gateway</body></html>", "Bad Gateway", 502},
		{"empty", "", "Service Unavailable", 503},
		{"echoed key", `{"error":{"message":"key sk-secret-key is invalid"}}`, "key [REDACTED] is invalid", 401},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := errorMessage([]byte(tc.body), tc.status, key); got != tc.want {
				t.Fatalf("errorMessage = %q, want %q", got, tc.want)
			}
		})
	}
	long := errorMessage([]byte(strings.Repeat("é", 1000)), 500, "")
	if n := len([]rune(long)); n != 301 {
		t.Fatalf("a long message kept %d runes", n)
	}
}

func TestLocalHost(t *testing.T) {
	cases := map[string]bool{
		"127.0.0.1": true, "::1": true, "10.1.2.3": true, "172.16.0.9": true, "192.168.0.2": true,
		"fd00::1": true, "169.254.1.1": true, "localhost": true, "gpu-box": true, "nas.local": true,
		"box.lan": true, "svc.internal": true, "pi.home.arpa": true, "ollama.localhost": true,
		"8.8.8.8": false, "example.com": false, "api.openai.com": false, "2001:4860::8888": false,
	}
	for host, want := range cases {
		if got := localHost(host); got != want {
			t.Errorf("localHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// A call's arguments go back to an OpenAI-compatible server as a JSON
// object: broken ones (a call cut mid-string) as {}, as the other wires
// send them, since llama-server refuses the whole request otherwise.
func TestArgsText(t *testing.T) {
	for in, want := range map[string]string{
		`{"count": 2}`:               `{"count": 2}`,
		` {"a":1} `:                  `{"a":1}`,
		`{"count": 2, "tag": "x`:     `{}`,
		`"{\"count\": 2}"`:           `{"count": 2}`, // kept as a string of an object
		`"{\"count\": 2, \"tag\": "`: `{}`,
		`[1,2]`:                      `{}`,
		``:                           `{}`,
		`null`:                       `{}`,
	} {
		if got := argsText(json.RawMessage(in)); got != want {
			t.Errorf("argsText(%s) = %s, want %s", in, got, want)
		}
	}
}
