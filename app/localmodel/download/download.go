// Package download downloads a model file and checks it against its pinned
// size and SHA-256 before anything may use it. The file grows as dest+".part"
// and is renamed to dest only once its hash is right, so a half or a wrong
// file is never taken for a model; and the file renamed to dest is hashed
// again there, so one that another program (or a second download of the
// same model) replaced or changed on disk meanwhile is removed, not
// installed. An interrupted download (a cut
// connection, a server that stops sending for IdleTimeout, a cancelled
// context, the app quitting) keeps its .part, and the next Get resumes it
// with an HTTP Range request (an attempt that made progress is resumed at
// once, a few times); a server that ignores Range is downloaded again
// from the start. One download of a file runs at a time, across
// processes too (a lock on dest+".lock"): another waits for it, reporting
// its progress, and takes its file.
//
//	err := download.Get(ctx, entry.URL, filepath.Join(dir, entry.File), entry.SHA256, entry.Size, func(done, total int64) { ... })
//
// The source may be https://, http://, file:// or a plain path (a mirror,
// or a file on disk).
package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/filelock"
)

// ErrChecksum says a downloaded file is not the pinned one (its SHA-256 or
// its size differs); the file has been removed.
var ErrChecksum = errors.New("the downloaded file is not the expected one (its SHA-256 or size differs), so it was removed; check the download URL and try again")

// ErrChanged says the file at the download's name was not the one
// downloaded and checked: the .part was replaced or written to by someone
// else during the download, or the installed file right after its rename.
// The file has been removed. It is an ErrChecksum too.
var ErrChanged error = changedError{}

type changedError struct{}

func (changedError) Error() string {
	return "the model file was replaced or changed on disk during its download (by another program, or a second download of the same model), so it was removed; download it again"
}

func (changedError) Unwrap() error { return ErrChecksum }

// Part is the suffix of a download in progress.
const Part = ".part"

// retries is how many times a transfer cut off after making progress is
// resumed at once, within one Get, before the error is returned (the .part
// stays for a later Get).
const retries = 3

// bufSize is the copy buffer: progress is reported once per buffer.
const bufSize = 256 << 10

// Client is the HTTP client downloads use (no overall timeout: a model is
// large; the context cancels, and IdleTimeout ends a stalled attempt).
var Client = &http.Client{}

// IdleTimeout is how long an attempt waits for the server's answer or
// its next bytes before it gives up (ErrStalled): a server that stops
// sending would otherwise hang the download without a word. An attempt
// that made progress is resumed at once, as after a cut connection; a
// variable so tests can shorten it.
var IdleTimeout = time.Minute

// ErrStalled says the server stopped sending: nothing arrived for
// IdleTimeout. What arrived is kept, so the next download resumes it.
var ErrStalled = errors.New("the server stopped sending")

// Get downloads src to dest, checking that the whole file has size bytes
// (when size > 0) and the SHA-256 want (hex), and reports progress (may be
// nil) as bytes done of total. It resumes dest+".part" when one is there.
// On a wrong hash the file is removed and the error is ErrChecksum; on a
// cancelled ctx or a transfer error the .part is kept (an empty one is
// removed: nothing arrived).
//
// One download of dest runs at a time across processes (a lock on
// dest+".lock", removed when it ends): a second Get, from another window or terminal, follows
// the first's progress and returns when it is done — nil when dest is then
// there and right, else it carries on from the .part itself.
func Get(ctx context.Context, src, dest, want string, size int64, progress func(done, total int64)) error {
	want = strings.ToLower(strings.TrimSpace(want))
	if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("download %s: the expected SHA-256 %q is not 64 hex digits", src, want)
	}
	if progress == nil {
		progress = func(int64, int64) {}
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	unlock, err := lockDownload(ctx, dest, size, progress)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Lstat(dest); err == nil {
		// Another process downloaded it while this one waited.
		if err := verify(dest, want, size); err != nil {
			os.Remove(dest)
			return err
		}
		progress(size, size)
		return nil
	}
	part := dest + Part
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	d := &job{ctx: ctx, src: src, f: f, size: size, progress: progress, h: sha256.New()}
	err = d.run()
	if err == nil {
		err = d.same(part)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if errors.Is(err, ErrChecksum) || d.done == 0 && !errors.Is(err, ErrChanged) {
			os.Remove(part) // wrong, or nothing arrived: nothing to resume
		}
		return err
	}
	if got := hex.EncodeToString(d.h.Sum(nil)); got != want {
		os.Remove(part)
		return fmt.Errorf("%s: SHA-256 %s, expected %s: %w", filepath.Base(dest), got, want, ErrChecksum)
	}
	// The hash above is of the bytes written through f, and the rename
	// moves whatever file the name .part has by then (f is closed first:
	// Windows renames no open file). So what dest holds after it is
	// hashed again: about a second a gigabyte.
	beforeRename(part)
	if err := os.Rename(part, dest); err != nil {
		return err
	}
	if err := verify(dest, want, size); err != nil {
		os.Remove(dest)
		return err
	}
	return nil
}

// Lock is the suffix of the file whose lock a download holds.
const Lock = ".lock"

// BusyPoll is how often a Get waiting for another process's download of
// the same file looks whether it is done (and reports the .part's size
// as its progress); a variable so tests can shorten it.
var BusyPoll = 500 * time.Millisecond

// lockDownload takes the lock on dest's download, waiting (until ctx
// ends) while another process holds it, and returns its release, which
// removes the lock file: the lock is on the file the name has when it is
// taken (a waiter that locked a file removed meanwhile opens the new one).
func lockDownload(ctx context.Context, dest string, size int64, progress func(done, total int64)) (func(), error) {
	name := dest + Lock
	for {
		lf, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		ok, err := filelock.TryLock(lf)
		if err != nil {
			lf.Close()
			return nil, fmt.Errorf("lock %s: %w", filepath.Base(name), err)
		}
		if ok && isNamed(lf, name) {
			return func() {
				_ = os.Remove(name) // before the unlock: a waiter then locks a file no longer named so, and opens it again
				filelock.Unlock(lf)
				lf.Close()
			}, nil
		}
		if ok { // the holder removed it as this process locked it: lock the one named so now
			filelock.Unlock(lf)
			lf.Close()
			continue
		}
		lf.Close()
		if st, err := os.Stat(dest + Part); err == nil {
			progress(st.Size(), size) // the other download's
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s: waited for another download of it (another Switchboard window or command), then cancelled: %w", filepath.Base(dest), ctx.Err())
		case <-time.After(BusyPoll):
		}
	}
}

// isNamed says whether f is the file name names.
func isNamed(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(name)
	return err == nil && os.SameFile(a, b)
}

// same checks that the name part is still the file written through d.f,
// before it is renamed into place.
func (d *job) same(part string) error {
	written, err := d.f.Stat()
	if err != nil {
		return err
	}
	now, err := os.Lstat(part)
	if err != nil {
		return fmt.Errorf("%s vanished during the download: %w", filepath.Base(part), ErrChanged)
	}
	if !os.SameFile(written, now) {
		return fmt.Errorf("%s was replaced during the download: %w", filepath.Base(part), ErrChanged)
	}
	return nil
}

// beforeRename is called between the check of the bytes written and the
// rename; a test swaps the .part there.
var beforeRename = func(part string) {}

// verify hashes the file installed at dest through one open handle, and
// checks that dest is still that handle's file, a regular one, once
// hashed: the bytes checked are the bytes installed.
func verify(dest, want string, size int64) error {
	f, err := os.Open(dest)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fmt.Errorf("check the installed %s: %w", filepath.Base(dest), err)
	}
	opened, err := f.Stat()
	if err != nil {
		return err
	}
	now, err := os.Lstat(dest)
	if err != nil {
		return err
	}
	got := hex.EncodeToString(h.Sum(nil))
	if !now.Mode().IsRegular() || !os.SameFile(opened, now) || got != want || size > 0 && n != size {
		return fmt.Errorf("%s: SHA-256 %s (%d bytes), expected %s: %w", filepath.Base(dest), got, n, want, ErrChanged)
	}
	return nil
}

// job is one Get: the .part file, and the hash of what it holds so far.
type job struct {
	ctx      context.Context
	src      string
	f        *os.File
	size     int64
	progress func(done, total int64)
	h        hash.Hash
	done     int64 // bytes in f, all of them hashed
	total    int64 // size, or what the server says
}

// run hashes what the .part holds, then downloads the rest, resuming at
// once after a cut that made progress.
func (d *job) run() error {
	n, err := io.Copy(d.h, d.f)
	if err != nil {
		return err
	}
	d.done, d.total = n, d.size
	if d.size > 0 && n > d.size { // not the file we expect: start over
		if err := d.restart(); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		if d.size > 0 && d.done == d.size {
			d.progress(d.done, d.total)
			return nil // complete: Get checks the hash
		}
		before := d.done
		err := d.copyRest()
		if err == nil || errors.Is(err, ErrChecksum) || d.ctx.Err() != nil {
			if d.ctx.Err() != nil {
				return fmt.Errorf("download of %s cancelled; the partial file is kept to resume: %w", d.src, d.ctx.Err())
			}
			return err
		}
		var perm *permanent
		if errors.As(err, &perm) || d.done == before || attempt >= retries {
			return err
		}
	}
}

// permanent marks an error resuming cannot cure (a 404, a missing file).
type permanent struct{ err error }

func (p *permanent) Error() string { return p.err.Error() }
func (p *permanent) Unwrap() error { return p.err }

// StatusError is a download the server refused or failed with an HTTP
// status other than 200 and 206.
type StatusError struct {
	URL    string
	Status string // "404 Not Found"
}

func (e *StatusError) Error() string { return e.URL + ": the server answered " + e.Status }

// restart empties the .part and the hash.
func (d *job) restart() error {
	if err := d.f.Truncate(0); err != nil {
		return err
	}
	if _, err := d.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	d.h.Reset()
	d.done = 0
	return nil
}

// copyRest opens the source at d.done and copies it to the end of the
// .part, giving up (ErrStalled) when nothing arrives for IdleTimeout.
func (d *job) copyRest() error {
	actx, cancel := context.WithCancel(d.ctx)
	defer cancel()
	var stalled atomic.Bool
	idle := time.AfterFunc(IdleTimeout, func() { stalled.Store(true); cancel() })
	defer idle.Stop()
	err := d.copyFrom(actx, idle)
	if err != nil && stalled.Load() && d.ctx.Err() == nil {
		return fmt.Errorf("download of %s: %w (nothing arrived for %s, at %d bytes)", d.src, ErrStalled, IdleTimeout, d.done)
	}
	return err
}

// copyFrom is copyRest's transfer, in the attempt's context actx; each
// read that brings bytes resets idle.
func (d *job) copyFrom(actx context.Context, idle *time.Timer) error {
	body, total, err := d.open(actx)
	if err != nil {
		return err
	}
	defer body.Close()
	stop := context.AfterFunc(actx, func() { body.Close() }) // a file's read is not cancelled by the context
	defer stop()
	if d.size <= 0 && total > 0 {
		d.total = total
	}
	d.progress(d.done, d.total)
	r := io.Reader(body)
	if d.size > 0 {
		r = io.LimitReader(body, d.size-d.done+1) // one byte more shows a file too long
	}
	buf := make([]byte, bufSize)
	for {
		if err := d.ctx.Err(); err != nil {
			return err
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			idle.Reset(IdleTimeout)
			if _, err := d.f.Write(buf[:n]); err != nil {
				return err
			}
			d.h.Write(buf[:n])
			d.done += int64(n)
			d.progress(d.done, d.total)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return fmt.Errorf("download of %s interrupted at %d bytes: %w", d.src, d.done, rerr)
		}
	}
	if d.size > 0 && d.done != d.size {
		if d.done > d.size {
			return fmt.Errorf("%s is longer than the expected %d bytes: %w", d.src, d.size, ErrChecksum)
		}
		return fmt.Errorf("download of %s ended at %d of %d bytes: %w", d.src, d.done, d.size, io.ErrUnexpectedEOF)
	}
	return nil
}

// open returns the source from d.done on (restarting the .part when the
// source cannot resume) and the whole file's size when it is known.
func (d *job) open(ctx context.Context) (io.ReadCloser, int64, error) {
	u, err := url.Parse(d.src)
	if err != nil || len(u.Scheme) <= 1 { // a plain path (or C:\ on Windows)
		return d.openFile(d.src)
	}
	switch u.Scheme {
	case "file":
		return d.openFile(filepath.FromSlash(u.Path))
	case "http", "https":
		return d.openHTTP(ctx)
	}
	return nil, 0, &permanent{fmt.Errorf("download %s: the URL must start with https://, http:// or file://", d.src)}
}

func (d *job) openFile(path string) (io.ReadCloser, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, &permanent{err}
	}
	st, err := f.Stat()
	if err == nil {
		_, err = f.Seek(d.done, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

func (d *job) openHTTP(ctx context.Context) (io.ReadCloser, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.src, nil)
	if err != nil {
		return nil, 0, &permanent{err}
	}
	if d.done > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(d.done, 10)+"-")
	}
	resp, err := Client.Do(req)
	if err != nil {
		return nil, 0, err // a *url.Error: it names the URL already
	}
	switch {
	case resp.StatusCode == http.StatusPartialContent && d.done > 0 && contentRangeStart(resp.Header.Get("Content-Range")) == d.done:
		return resp.Body, contentRangeTotal(resp.Header.Get("Content-Range")), nil
	case resp.StatusCode == http.StatusOK:
		if d.done > 0 { // the server ignored Range: what it sends is the whole file
			if err := d.restart(); err != nil {
				resp.Body.Close()
				return nil, 0, err
			}
		}
		return resp.Body, resp.ContentLength, nil
	}
	resp.Body.Close()
	err = &StatusError{URL: d.src, Status: resp.Status}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		err = &permanent{err}
	}
	if d.done > 0 && resp.StatusCode == http.StatusRequestedRangeNotSatisfiable || resp.StatusCode == http.StatusPartialContent {
		// The .part does not fit the file the server has: start over next time.
		if rerr := d.restart(); rerr != nil {
			return nil, 0, rerr
		}
		err = fmt.Errorf("%s: the partial file did not match the server's, starting over", d.src)
	}
	return nil, 0, err
}

// contentRangeStart is the first byte of "bytes START-END/TOTAL" (-1: none).
func contentRangeStart(h string) int64 {
	s, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return -1
	}
	s, _, _ = strings.Cut(s, "-")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// contentRangeTotal is the TOTAL of "bytes START-END/TOTAL" (-1: unknown).
func contentRangeTotal(h string) int64 {
	_, s, ok := strings.Cut(h, "/")
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n
}
