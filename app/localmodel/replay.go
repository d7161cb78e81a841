package localmodel

import "net/http"

// replayable is the app's transport to llama-server with every request
// that can be sent again marked so (an X-Idempotency-Key header without a
// value, which is not sent): Go's transport then sends such a request once
// more, on a new connection, when the kept-alive connection it took turns
// out closed by the server before any answer came, instead of failing the
// chat turn with EOF (seen once in the local model's bench). A request to
// llama-server changes nothing that a second one would change again: a
// repeated completion only computes again.
type replayable struct{ tr *http.Transport }

// RoundTrip marks req when its body can be read again (or it has none).
func (r replayable) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil || req.Body == http.NoBody || req.GetBody != nil {
		if _, ok := req.Header["X-Idempotency-Key"]; !ok {
			req = req.Clone(req.Context()) // a RoundTripper does not change its caller's request
			req.Header["X-Idempotency-Key"] = nil
		}
	}
	return r.tr.RoundTrip(req)
}

// CloseIdleConnections closes the transport's kept-alive connections
// (http.Client.CloseIdleConnections reaches it through this method).
func (r replayable) CloseIdleConnections() { r.tr.CloseIdleConnections() }
