package config

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// WatchInterval is how often Watch looks at config.json. A variable so tests
// can shorten it.
var WatchInterval = 2 * time.Second

// Stamp identifies one content of config.json: two stamps are equal exactly
// when the bytes are. A missing file has the zero Stamp. Comparing stamps
// tells a window that another process (the CLI, a second window, an editor)
// changed the file, so it reloads instead of keeping a stale copy; file
// times alone would miss two saves within the same second.
type Stamp struct {
	Size int64
	Sum  [sha256.Size]byte
}

// StampOf returns the stamp of the file at path as it is now.
func StampOf(path string) (Stamp, error) {
	_, st, err := readStamped(path)
	return st, err
}

// readStamped reads the file and stamps those very bytes.
func readStamped(path string) ([]byte, Stamp, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Stamp{}, nil
	}
	if err != nil {
		return nil, Stamp{}, fmt.Errorf("read config: %w", err)
	}
	return data, Stamp{Size: int64(len(data)), Sum: sha256.Sum256(data)}, nil
}

// Watch calls onChange each time the content of the config at path differs
// from the last one seen, starting from since, until ctx ends; it looks every
// WatchInterval. Take since with StampOf before loading the config the
// caller shows, so a change made in between is reported, not missed.
//
// onChange gets the config read from the very bytes that changed, or the
// error of reading them (a file that does not load is reported once, not
// every interval). Saves made by this process are reported too, so applying
// a config must be harmless when nothing changed. While another process
// holds the lock (an Edit is under way) the look is skipped: the next one
// sees the finished file. An editor saving in place takes no lock: content
// that is empty or not plain JSON waits for a second look (watchState).
func Watch(ctx context.Context, path string, since Stamp, onChange func(cfg *Config, err error)) {
	w := watchState{last: since}
	t := time.NewTicker(WatchInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		unlock, ok := tryLockConfig(path)
		if !ok {
			continue
		}
		data, st, err := readStamped(path)
		unlock()
		if err != nil || !w.see(data, st) {
			continue // unreadable or unsettled for now: try again at the next look
		}
		cfg, err := parseApp(ctx, path, data)
		if ctx.Err() != nil {
			return
		}
		onChange(cfg, err)
	}
}

// watchState decides, look by look, whether Watch reports what it read.
// Editors and scripts that save in place (truncate, then write) can be
// caught midway: an empty file would load as an empty config and stop
// every server, a half-written one would flash a syntax error. Content
// that is empty or not plain JSON is reported only once a second look
// finds the very same bytes; anything else is reported at once.
type watchState struct {
	last    Stamp // the content last reported (or the caller's since)
	pending *Stamp
}

// see is one look at data (stamped st): true when it is to be reported.
func (w *watchState) see(data []byte, st Stamp) bool {
	if st == w.last {
		w.pending = nil
		return false
	}
	body := bytes.TrimPrefix(data, utf8BOM)
	unsettled := len(bytes.TrimSpace(body)) == 0 || !json.Valid(body)
	if unsettled && (w.pending == nil || *w.pending != st) {
		w.pending = &st
		return false
	}
	w.pending, w.last = nil, st
	return true
}
