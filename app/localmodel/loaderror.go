package localmodel

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// LoadError is a llama-server that exited before its model was loaded.
// Its exit status says nothing ("exit status 1"); what llama.cpp logged
// does, so Why says that in words where the line is one of those known
// (a file cut short, a split model's part, memory), else quotes the line.
type LoadError struct {
	Why  string // in words: "the model file is cut short …"
	Line string // the log's line it comes from ("" when none was found)
	Log  string // the log's path ("" when none is kept)
	Err  error  // how the process ended
}

func (e *LoadError) Error() string {
	return e.Reason() + " (see " + logName(e.Log) + ")"
}

// Reason is the error without the log's path, for a screen that shows
// the path beside it.
func (e *LoadError) Reason() string { return "llama-server did not load the model: " + e.Why }

func (e *LoadError) Unwrap() error { return e.Err }

// Reason is err without the log's path when it is a *LoadError, else
// err's own text: what a status line says beside the log's path.
func Reason(err error) string {
	if le, ok := errors.AsType[*LoadError](err); ok {
		return le.Reason()
	}
	return err.Error()
}

// loadFailures are the lines llama.cpp logs when it refuses a model,
// each with what it means for the person, in the order they are looked
// for (the most specific first: a refused split also logs "failed to load
// model").
var loadFailures = []struct {
	re  *regexp.Regexp
	why string // %s: the pattern's first group, when it has one
}{
	{regexp.MustCompile(`data is not within the file bounds`), "the model file is cut short or damaged (a download or copy that did not finish): download or copy it again"},
	{regexp.MustCompile(`illegal split file idx`), "the file is not the first part of a model split in parts: choose the part whose name ends -00001-of-….gguf"},
	{regexp.MustCompile(`failed to load GGUF split from (\S+)`), "a part of the split model, %s, is missing or unreadable: put every part beside the first, with the names they were published with"},
	{regexp.MustCompile(`invalid split (?:file idx|count)`), "the parts of the split model do not belong together: download them again"},
	{regexp.MustCompile(`cache type \S+ with block size \d+ does not divide`), "its quantized KV cache does not suit this model's attention heads: set a context size in Settings → Models (switchboard models run --context), which keeps the cache f16"},
	{regexp.MustCompile(`unknown model architecture: '([^']*)'`), "this version of llama.cpp does not know the model's architecture (%s): run it with Ollama or LM Studio, or choose another model"},
	{regexp.MustCompile(`(?i)failed to allocate|unable to allocate|cannot allocate memory|out of memory|std::bad_alloc`), "there is not enough free memory for it: choose a smaller context size or a smaller model, or close other programs"},
	{regexp.MustCompile(`(?i)invalid magic|failed to read magic|not a gguf`), "the file is not a GGUF model llama.cpp can read"},
}

// explainLoad is what the lines llama-server logged before it exited say
// of why it did not load the model, and the line that says it.
func explainLoad(lines []string) (why, line string) {
	for _, f := range loadFailures {
		for _, l := range lines {
			if m := f.re.FindStringSubmatch(l); m != nil {
				why = f.why
				if strings.Contains(why, "%s") && len(m) > 1 {
					why = fmt.Sprintf(why, m[1])
				}
				return why, l
			}
		}
	}
	// Unknown: quote the first error it logged ("error loading model: …"
	// is llama.cpp's own summary), else the last line.
	for _, l := range lines {
		if _, after, ok := strings.Cut(l, "error loading model: "); ok {
			return "its log says: " + after, l
		}
	}
	for _, l := range lines {
		if levelError.MatchString(l) {
			return "its log says: " + clean(l), l
		}
	}
	if n := len(lines); n > 0 {
		return "its log ends: " + clean(lines[n-1]), lines[n-1]
	}
	return "it exited without saying why", ""
}

// levelError is llama.cpp's error level in its log's prefix ("0.00.048.815 E ").
var levelError = regexp.MustCompile(`^(?:[\d.]+ )?E `)

// prefix is llama.cpp's time and level at a log line's start.
var prefix = regexp.MustCompile(`^(?:[\d.]+ )?[DIWE] `)

// clean is a log line without llama.cpp's time and level prefix.
func clean(l string) string { return strings.TrimSpace(prefix.ReplaceAllString(l, "")) }

// lastLines keeps the last lines written to it (llama-server's output of
// one run), for LoadError: a bounded copy beside the log file.
type lastLines struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
}

// keepLines is how many lines lastLines keeps: a failed load logs its
// reason within its last few dozen.
const keepLines = 64

func (l *lastLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := append(l.partial, p...)
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		l.add(string(bytes.TrimRight(b[:i], "\r")))
		b = b[i+1:]
	}
	if len(b) > 4096 { // a line without end: keep its start
		l.add(string(b[:4096]))
		b = nil
	}
	l.partial = append([]byte(nil), b...)
	return len(p), nil
}

func (l *lastLines) add(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	l.lines = append(l.lines, s)
	if len(l.lines) > keepLines {
		l.lines = append([]string(nil), l.lines[len(l.lines)-keepLines:]...)
	}
}

// all is the lines kept, the unfinished last one included.
func (l *lastLines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]string(nil), l.lines...)
	if len(bytes.TrimSpace(l.partial)) > 0 {
		out = append(out, string(l.partial))
	}
	return out
}
