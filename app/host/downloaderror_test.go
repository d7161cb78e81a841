package host

import (
	"errors"
	"fmt"
	"io"
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
		// Another program changed the file: not "the file that arrived is wrong".
		{fmt.Errorf("Qwen3.gguf.part was replaced during the download: %w", download.ErrChanged),
			"Could not download Qwen3 1.7B: the file was changed on disk during the download (by another program), so it was removed; download it again."},
		{fmt.Errorf("download of %s: %w (nothing arrived for 1m0s, at 1048576 bytes)", u, download.ErrStalled),
			"Could not download Qwen3 1.7B: the server stopped sending; what arrived is kept, so downloading again resumes it."},
		{fmt.Errorf("download of %s interrupted at 1048576 bytes: %w", u, io.ErrUnexpectedEOF),
			"Could not download Qwen3 1.7B: the connection broke off; what arrived is kept, so downloading again resumes it."},
		// Anything else: its own words, never a sentence without a reason.
		{fmt.Errorf("download of %s: %w", u, errors.New("disk quota exceeded")), "Could not download Qwen3 1.7B: disk quota exceeded."},
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
