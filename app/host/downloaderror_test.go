package host

import (
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel/download"
)

// A failed download says which model and why in one sentence, the URL at
// most once and the network's own words only in the detail.
func TestDownloadErrorPlain(t *testing.T) {
	const u = "https://huggingface.co/x/Qwen3-1.7B-Q4_K_M.gguf"
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Get", URL: u, Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "huggingface.co", IsNotFound: true}}},
			"Could not download Qwen3 1.7B: huggingface.co cannot be found."},
		{&download.StatusError{URL: u, Status: "404 Not Found"}, "Could not download Qwen3 1.7B: huggingface.co answered 404 Not Found."},
	} {
		e := &DownloadError{Model: "Qwen3 1.7B", Err: tt.err}
		text := Plain(e)
		first, detail, _ := strings.Cut(text, "\n")
		if first != tt.want {
			t.Errorf("sentence = %q, want %q", first, tt.want)
		}
		if strings.Count(text, u) > 1 || strings.Contains(first, "dial tcp") || detail == "" {
			t.Errorf("Plain = %q: the URL more than once, or the technical text in the sentence", text)
		}
	}
}
