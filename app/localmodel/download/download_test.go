package download

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// model is the file the tests download: a bit over four copy buffers, so
// progress is reported several times and a cut can fall in the middle.
var model = func() []byte {
	b := make([]byte, 4*bufSize+12345)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}()

var modelSum = func() string { s := sha256.Sum256(model); return hex.EncodeToString(s[:]) }()

// server serves model; it records each request's Range header, and cuts
// the connection after half the file for the first `cuts` requests, or
// ignores Range when ignoreRange.
type server struct {
	cuts        int
	ignoreRange bool
	mu          sync.Mutex
	ranges      []string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	cut := s.cuts > 0
	s.cuts--
	s.mu.Unlock()
	if cut {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", len(model))
		buf.Write(model[:len(model)/2])
		buf.Flush()
		conn.Close()
		return
	}
	if s.ignoreRange {
		r.Header.Del("Range")
	}
	http.ServeContent(w, r, "model.gguf", time.Time{}, bytes.NewReader(model))
}

func (s *server) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ranges...)
}

func TestGet(t *testing.T) {
	half := int64(len(model) / 2)
	tests := []struct {
		name       string
		srv        server
		part       []byte // a .part left by an earlier download
		sum        string
		wantErr    error
		wantRanges []string // the Range headers the server saw
		wantPart   int64    // -1: no .part after; else its length
	}{
		{name: "whole file", wantRanges: []string{""}, wantPart: -1},
		{name: "resumes after a cut connection", srv: server{cuts: 1},
			wantRanges: []string{"", fmt.Sprintf("bytes=%d-", half)}, wantPart: -1},
		{name: "resumes a .part left earlier", part: model[:1000],
			wantRanges: []string{"bytes=1000-"}, wantPart: -1},
		{name: "server ignoring Range starts over", srv: server{ignoreRange: true}, part: model[:1000],
			wantRanges: []string{"bytes=1000-"}, wantPart: -1},
		{name: "a .part longer than the file starts over", part: append(bytes.Clone(model), 1),
			wantRanges: []string{""}, wantPart: -1},
		{name: "wrong SHA-256 refused and removed", sum: strings.Repeat("0", 64), wantErr: ErrChecksum,
			wantRanges: []string{""}, wantPart: -1},
		{name: "a wrong .part fails the check and is removed", part: bytes.Repeat([]byte{7}, 1000), wantErr: ErrChecksum,
			wantRanges: []string{"bytes=1000-"}, wantPart: -1},
		{name: "gives up after repeated cuts, keeping the .part", srv: server{cuts: 100},
			wantErr: errAny, wantRanges: []string{"", "bytes=" + fmt.Sprint(half) + "-"}, wantPart: half},
	}
	for i := range tests {
		tt := &tests[i]
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(&tt.srv)
			defer srv.Close()
			dest := filepath.Join(t.TempDir(), "m", "model.gguf")
			if tt.part != nil {
				os.MkdirAll(filepath.Dir(dest), 0o755)
				if err := os.WriteFile(dest+Part, tt.part, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var last, calls int64
			err := Get(context.Background(), srv.URL+"/model.gguf", dest, cmpOr(tt.sum, modelSum), int64(len(model)), func(done, total int64) {
				if done < 0 || done > total || total != int64(len(model)) {
					t.Errorf("progress %d of %d", done, total)
				}
				last = done
				calls++
			})
			checkErr(t, err, tt.wantErr)
			if got := tt.srv.seen(); fmt.Sprint(got) != fmt.Sprint(tt.wantRanges) {
				t.Errorf("Range headers %q, want %q", got, tt.wantRanges)
			}
			checkPart(t, dest, tt.wantPart)
			if tt.wantErr == nil {
				got, err := os.ReadFile(dest)
				if err != nil || !bytes.Equal(got, model) {
					t.Fatalf("dest holds %d bytes (%v), want the model", len(got), err)
				}
				if last != int64(len(model)) || calls < 3 {
					t.Errorf("progress reported %d times, last %d", calls, last)
				}
			} else if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Errorf("dest exists after a failed download: %v", err)
			}
		})
	}
}

// errAny stands for any error in a table.
var errAny = errors.New("any error")

func checkErr(t *testing.T, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Fatalf("Get: %v", err)
	case want == errAny && err == nil, want != nil && want != errAny && !errors.Is(err, want):
		t.Fatalf("Get = %v, want %v", err, want)
	}
}

func checkPart(t *testing.T, dest string, want int64) {
	t.Helper()
	st, err := os.Stat(dest + Part)
	switch {
	case want < 0 && !os.IsNotExist(err):
		t.Errorf(".part left behind (%v)", err)
	case want >= 0 && (err != nil || st.Size() != want):
		t.Errorf(".part: %v, want %d bytes", err, want)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// A cancelled download keeps its .part, and the next Get resumes it.
func TestGetCancelKeepsPartThenResumes(t *testing.T) {
	srv := &server{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dest := filepath.Join(t.TempDir(), "model.gguf")
	ctx, cancel := context.WithCancel(context.Background())
	err := Get(ctx, ts.URL+"/m", dest, modelSum, int64(len(model)), func(done, total int64) {
		if done > 0 {
			cancel() // the user clicks Cancel once bytes arrived
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Get after cancel = %v, want context.Canceled", err)
	}
	st, err := os.Stat(dest + Part)
	if err != nil || st.Size() == 0 || st.Size() >= int64(len(model)) {
		t.Fatalf(".part after cancel: %v (size %v)", err, st)
	}
	if err := Get(context.Background(), ts.URL+"/m", dest, modelSum, int64(len(model)), nil); err != nil {
		t.Fatal(err)
	}
	if got := srv.seen(); len(got) != 2 || got[1] != fmt.Sprintf("bytes=%d-", st.Size()) {
		t.Errorf("Range headers %q: the second Get did not resume at %d", got, st.Size())
	}
	checkPart(t, dest, -1)
}

// A file on disk works as a source, as a file:// URL or a plain path,
// resuming a .part too.
func TestGetFromFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "mirror", "model.gguf")
	os.MkdirAll(filepath.Dir(src), 0o755)
	if err := os.WriteFile(src, model, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, s := range []string{"file://" + filepath.ToSlash(src), src} {
		dest := filepath.Join(dir, fmt.Sprint(i), "model.gguf")
		os.MkdirAll(filepath.Dir(dest), 0o755)
		os.WriteFile(dest+Part, model[:5000], 0o644)
		var first int64 = -1
		if err := Get(context.Background(), s, dest, modelSum, int64(len(model)), func(done, _ int64) {
			if first < 0 {
				first = done
			}
		}); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if first != 5000 {
			t.Errorf("%s: first progress %d, want 5000 (resumed)", s, first)
		}
		if got, _ := os.ReadFile(dest); !bytes.Equal(got, model) {
			t.Errorf("%s: wrong content", s)
		}
	}
}

// Errors resuming cannot cure come back at once, saying what happened.
func TestGetErrors(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	dir := t.TempDir()
	for _, tt := range []struct{ src, sum, want string }{
		{ts.URL + "/missing.gguf", modelSum, "404"},
		{filepath.Join(dir, "missing.gguf"), modelSum, "no such file"},
		{"ftp://example.com/m.gguf", modelSum, "https://, http:// or file://"},
		{ts.URL + "/m.gguf", "abc", "not 64 hex digits"},
	} {
		err := Get(context.Background(), tt.src, filepath.Join(dir, "out.gguf"), tt.sum, 10, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Get(%s) = %v, want an error saying %q", tt.src, err, tt.want)
		}
	}
}

// swapper serves model, and halfway through replaces the .part the
// download writes to with another file of the same size: the download
// goes on writing to the file it opened, whose bytes hash right.
type swapper struct {
	part, other string
}

func (s *swapper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", fmt.Sprint(len(model)))
	w.Write(model[:len(model)/2])
	w.(http.Flusher).Flush()
	if err := os.Rename(s.other, s.part); err != nil {
		panic(err)
	}
	w.Write(model[len(model)/2:]) // the download cannot end before this
}

// A .part replaced during the download is refused, not installed.
func TestGetRefusesAPartReplacedDuringTheDownload(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "model.gguf")
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, bytes.Repeat([]byte{7}, len(model)), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(&swapper{part: dest + Part, other: other})
	defer ts.Close()
	err := Get(context.Background(), ts.URL+"/m", dest, modelSum, int64(len(model)), nil)
	if !errors.Is(err, ErrChanged) || !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "download it again") {
		t.Fatalf("Get = %v, want ErrChanged", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("the replaced file was installed (%v)", err)
	}
	checkPart(t, dest, -1)
}

// What dest holds after the rename is what is checked: a .part replaced
// or written to after its bytes were hashed, right before the rename, is
// removed from dest.
func TestGetChecksTheFileInstalled(t *testing.T) {
	wrong := bytes.Repeat([]byte{7}, len(model))
	for _, tt := range []struct {
		name string
		swap func(t *testing.T, part string)
	}{
		{"replaced by another file", func(t *testing.T, part string) {
			other := part + ".other"
			if err := os.WriteFile(other, wrong, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, part); err != nil {
				t.Fatal(err)
			}
		}},
		{"written to in place", func(t *testing.T, part string) {
			f, err := os.OpenFile(part, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte("not the model"), 1000); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced by a link to the right bytes", func(t *testing.T, part string) {
			// dest would follow a file someone else may change later.
			target := filepath.Join(t.TempDir(), "model.gguf")
			if err := os.WriteFile(target, model, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(part); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, part); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(&server{})
			defer ts.Close()
			dest := filepath.Join(t.TempDir(), "model.gguf")
			var swapped bool
			beforeRename = func(part string) { swapped = true; tt.swap(t, part) }
			defer func() { beforeRename = func(string) {} }()
			err := Get(context.Background(), ts.URL+"/m", dest, modelSum, int64(len(model)), nil)
			if !swapped || !errors.Is(err, ErrChanged) {
				t.Fatalf("Get = %v (swapped: %v), want ErrChanged", err, swapped)
			}
			if _, err := os.Lstat(dest); !os.IsNotExist(err) {
				t.Errorf("dest left in place (%v)", err)
			}
			checkPart(t, dest, -1)
		})
	}
}

// staller sends the first half of model and then nothing (until the test
// ends) for its first `stalls` requests; later ones are served whole.
type staller struct {
	stalls int
	server
	done chan struct{}
}

func (s *staller) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	stall := s.stalls > 0
	s.stalls--
	s.mu.Unlock()
	if !stall {
		s.server.ServeHTTP(w, r)
		return
	}
	s.mu.Lock()
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	s.mu.Unlock()
	w.Header().Set("Content-Length", fmt.Sprint(len(model)))
	w.Write(model[:len(model)/2])
	w.(http.Flusher).Flush()
	select {
	case <-s.done:
	case <-r.Context().Done():
	}
}

// A server that stops sending does not hang the download: the attempt
// ends after IdleTimeout without bytes, and resumes where it stopped; one
// that sends nothing at all fails saying so, keeping no empty .part.
func TestGetGivesUpOnAStalledServerAndResumes(t *testing.T) {
	old := IdleTimeout
	IdleTimeout = 200 * time.Millisecond
	t.Cleanup(func() { IdleTimeout = old })
	half := int64(len(model) / 2)

	s := &staller{stalls: 1, done: make(chan struct{})}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer close(s.done)
	dest := filepath.Join(t.TempDir(), "model.gguf")
	if err := Get(t.Context(), ts.URL+"/m", dest, modelSum, int64(len(model)), nil); err != nil {
		t.Fatalf("Get = %v, want it resumed after the stall", err)
	}
	if got := s.seen(); fmt.Sprint(got) != fmt.Sprint([]string{"", fmt.Sprintf("bytes=%d-", half)}) {
		t.Fatalf("requests %q: want the whole file, then a resume at %d", got, half)
	}

	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer silent.Close()
	dest = filepath.Join(t.TempDir(), "model.gguf")
	err := Get(t.Context(), silent.URL+"/m", dest, modelSum, int64(len(model)), nil)
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "nothing arrived for 200ms") {
		t.Fatalf("Get = %v, want ErrStalled", err)
	}
	checkPart(t, dest, -1)
}

// A download the server refuses (a 404) leaves no empty .part behind.
func TestGetLeavesNoEmptyPart(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	dest := filepath.Join(t.TempDir(), "model.gguf")
	if err := Get(t.Context(), ts.URL+"/m", dest, modelSum, int64(len(model)), nil); err == nil {
		t.Fatal("a 404 downloaded")
	}
	checkPart(t, dest, -1)
	if _, err := os.Stat(dest + Lock); !os.IsNotExist(err) {
		t.Fatalf("a lock file is left: %v", err)
	}
}

// Two downloads of one file (two windows, two terminals: flock excludes
// two opens in one process too) do not write one .part together: the
// second follows the first's progress and ends with its file.
func TestGetWaitsForAnotherDownloadOfTheSameFile(t *testing.T) {
	oldPoll := BusyPoll
	BusyPoll = 20 * time.Millisecond
	t.Cleanup(func() { BusyPoll = oldPoll })
	gate := make(chan struct{})
	var requests sync.WaitGroup
	var mu sync.Mutex
	count := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		count++
		mu.Unlock()
		requests.Done()
		w.Header().Set("Content-Length", fmt.Sprint(len(model)))
		w.Write(model[:len(model)/2])
		w.(http.Flusher).Flush()
		<-gate
		w.Write(model[len(model)/2:])
	}))
	defer ts.Close()
	dest := filepath.Join(t.TempDir(), "model.gguf")
	requests.Add(1)
	first := make(chan error, 1)
	go func() { first <- Get(t.Context(), ts.URL+"/m", dest, modelSum, int64(len(model)), nil) }()
	requests.Wait() // the first holds the lock and is half way
	second := make(chan error, 1)
	followed := make(chan struct{})
	var once sync.Once
	go func() {
		second <- Get(t.Context(), ts.URL+"/m", dest, modelSum, int64(len(model)), func(done, _ int64) {
			if done >= int64(len(model)/2) {
				once.Do(func() { close(followed) }) // the second reports the first's .part
			}
		})
	}()
	<-followed
	close(gate)
	if err := <-first; err != nil {
		t.Fatalf("first: %v", err)
	}
	if err := <-second; err != nil {
		t.Fatalf("second: %v, want the first's file", err)
	}
	if got, _ := os.ReadFile(dest); !bytes.Equal(got, model) || count != 1 {
		t.Fatalf("dest %d bytes after %d requests; want the model from one", len(got), count)
	}
	if _, err := os.Stat(dest + Lock); !os.IsNotExist(err) {
		t.Fatalf("the lock file outlived the downloads: %v", err)
	}
}
