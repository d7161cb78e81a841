package providertest

import "testing"

// NewServer starts a Server on 127.0.0.1 that t.Cleanup closes.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
