package config

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestStartupTimeout(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want time.Duration
		err  string // a problem naming the key; "" for none
	}{
		{"milliseconds", `{"command": "npx", "startupTimeout": 3000}`, 3 * time.Second, ""},
		{"absent is the default", `{"command": "npx"}`, 0, ""},
		{"negative", `{"command": "npx", "startupTimeout": -1}`, 0, "startupTimeout: must be a number of milliseconds"},
		{"a string", `{"command": "npx", "startupTimeout": "3s"}`, 0, "startupTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseContext(t.Context(), "claude.json", []byte(`{"mcpServers": {"s": `+tt.in+`}}`))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := f.Servers[0]
			if s.StartupTimeout != tt.want {
				t.Fatalf("StartupTimeout = %s, want %s", s.StartupTimeout, tt.want)
			}
			out, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(string(out), `"startupTimeout":3000`); has != (tt.want != 0) {
				t.Errorf("written back as %s", out)
			}
			if _, extra := s.Extra["startupTimeout"]; extra {
				t.Error("startupTimeout kept in Extra as well")
			}
		})
	}
}
