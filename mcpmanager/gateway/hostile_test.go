package gateway

import (
	"testing"
)

// TestBearerScheme: the scheme of "Authorization: Bearer <token>" is
// case-insensitive; the token is not.
func TestBearerScheme(t *testing.T) {
	const token = "0123abcd"
	cases := []struct {
		header string
		want   bool
	}{
		{"Bearer 0123abcd", true},
		{"bearer 0123abcd", true},
		{"BEARER 0123abcd", true},
		{"Bearer  0123abcd", true},
		{"Bearer 0123ABCD", false},
		{"Basic 0123abcd", false},
		{"Bearer0123abcd", false},
		{"0123abcd", false},
		{"Bearer ", false},
		{"", false},
	}
	for _, c := range cases {
		if got := bearer(c.header, token); got != c.want {
			t.Errorf("%q: %v, want %v", c.header, got, c.want)
		}
	}
	if bearer("Bearer ", "") {
		t.Error("an empty token matched")
	}
}
