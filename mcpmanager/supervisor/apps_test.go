package supervisor

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

// Every server is told the client renders MCP Apps, with or without a
// request handler: the extension's capability names the one MIME type.
func TestOffersAppsExtension(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"with a request handler", Options{Requests: &answers{}}},
		{"without one", Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := newRemoteServer(t, func(string, *http.Request) bool { return true })
			s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rs.URL, Type: RemoteHTTP}}, tc.opts)
			waitState(t, s, Ready, 10*time.Second)
			got := rs.offered().Extensions[apps.Extension]
			want := map[string]any{"mimeTypes": []any{apps.MIMEType}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("extensions[%q] = %#v, want %#v", apps.Extension, got, want)
			}
		})
	}
}
