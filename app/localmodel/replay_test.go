package localmodel

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// connRequests counts the requests served on one connection.
type connRequests struct{}

// TestRequestsAreSentAgainOnAClosedConnection: a request that finds its
// kept-alive connection closed by the server before any answer is sent
// again on a new one, as a chat's request to llama-server must be; without
// the mark, the same request fails with EOF.
func TestRequestsAreSentAgainOnAClosedConnection(t *testing.T) {
	var served atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := r.Context().Value(connRequests{}).(*atomic.Int32)
		if n.Add(1) > 1 { // a kept-alive connection's next request: close it unanswered
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		served.Add(1)
		body, _ := io.ReadAll(r.Body)
		_, _ = w.Write(body)
	}))
	srv.Config.ConnContext = func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connRequests{}, new(atomic.Int32))
	}
	srv.Start()
	t.Cleanup(srv.Close)

	for _, tc := range []struct {
		name      string
		transport http.RoundTripper
		wantErr   bool
	}{
		{"marked", replayable{http.DefaultTransport.(*http.Transport).Clone()}, false},
		{"unmarked", http.DefaultTransport.(*http.Transport).Clone(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &http.Client{Transport: tc.transport}
			defer c.CloseIdleConnections()
			post := func(text string) (string, error) {
				res, err := c.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader([]byte(text)))
				if err != nil {
					return "", err
				}
				defer res.Body.Close()
				b, err := io.ReadAll(res.Body)
				return string(b), err
			}
			if got, err := post("one"); err != nil || got != "one" {
				t.Fatalf("first request = %q, %v", got, err)
			}
			got, err := post("two") // takes the kept-alive connection, which the server closes
			if tc.wantErr {
				if err == nil {
					t.Fatalf("an unmarked request on the closed connection = %q, want an error (else the test shows nothing)", got)
				}
				return
			}
			if err != nil || got != "two" {
				t.Fatalf("second request = %q, %v; want it sent again on a new connection", got, err)
			}
		})
	}
	if n := served.Load(); n != 3 {
		t.Errorf("%d requests answered, want 3 (one, two again, one unmarked)", n)
	}
}
