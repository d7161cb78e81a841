package webkit

import "testing"

func TestJITTier(t *testing.T) {
	for _, c := range []struct {
		name    string
		env     map[string]string
		want    string
		wantErr bool
	}{
		{"default: baseline only", nil, JITBaseline, false},
		{"asked for", map[string]string{"SWITCHBOARD_WEBKIT_JIT": "full"}, JITFull, false},
		{"off", map[string]string{"SWITCHBOARD_WEBKIT_JIT": "off"}, JITOff, false},
		{"a lean web process: no JIT", map[string]string{"SWITCHBOARD_WEBKIT_MEMORY": "lean"}, JITOff, false},
		{"lean settings spelled out", map[string]string{"SWITCHBOARD_WEBKIT_MEMORY": "limit=120"}, JITOff, false},
		{"memory settings off", map[string]string{"SWITCHBOARD_WEBKIT_MEMORY": "off"}, JITBaseline, false},
		{"asked for beats lean", map[string]string{"SWITCHBOARD_WEBKIT_MEMORY": "lean", "SWITCHBOARD_WEBKIT_JIT": "full"}, JITFull, false},
		{"the user's JSC option wins", map[string]string{"JSC_useDFGJIT": "true", "SWITCHBOARD_WEBKIT_JIT": "off"}, "user", false},
		{"any JIT switch of the user's", map[string]string{"JSC_useFTLJIT": "false"}, "user", false},
		{"other JSC options are not JIT switches", map[string]string{"JSC_logGC": "1"}, JITBaseline, false},
		{"a typo", map[string]string{"SWITCHBOARD_WEBKIT_JIT": "none"}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var environ []string
			for k, v := range c.env {
				environ = append(environ, k+"="+v)
			}
			got, err := jitTier(func(k string) string { return c.env[k] }, environ)
			if (err != nil) != c.wantErr || got != c.want {
				t.Fatalf("jitTier = %q, %v; want %q (error: %v)", got, err, c.want, c.wantErr)
			}
		})
	}
}
