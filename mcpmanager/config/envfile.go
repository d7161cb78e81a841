package config

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// MaxEnvFileSize is the largest envFile ReadEnvFile reads: a few variables
// are a few hundred bytes.
const MaxEnvFileSize = 1 << 20

// ReadEnvFile reads a server's "envFile": the dotenv format VS Code and
// Cursor read there. A line is KEY=VALUE, optionally after "export "; blank
// lines and lines starting with # are skipped; a value may be quoted,
// "double" (with \n, \t, \" and \\ escapes) or 'single' (as written), and
// an unquoted value ends at " #" (a comment). An error names the file and
// line and says what to fix.
func ReadEnvFile(path string) (map[string]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("envFile %s: %w; create it, or remove \"envFile\" from the server's entry", path, err)
	}
	if fi.Size() > MaxEnvFileSize {
		return nil, fmt.Errorf("envFile %s is %d bytes; an environment file is far smaller: check that it is the right file", path, fi.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("envFile %s: %w", path, err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(data, utf8BOM)))
	sc.Buffer(make([]byte, 0, 4096), MaxEnvFileSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !plainEnvName.MatchString(key) {
			return nil, fmt.Errorf("envFile %s:%d: %q is not KEY=VALUE; write each variable as NAME=value", path, n, truncate(line, 40))
		}
		v, err := envValue(strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("envFile %s:%d: %s: %w", path, n, key, err)
		}
		out[key] = v
	}
	return out, sc.Err()
}

// envValue is one value of an env file, its quotes and comment removed.
func envValue(v string) (string, error) {
	switch {
	case strings.HasPrefix(v, `"`):
		end := closingQuote(v)
		if end < 0 {
			return "", fmt.Errorf(`the value's " is not closed; end it with " on the same line`)
		}
		u, err := strconv.Unquote(v[:end+1])
		if err != nil { // an escape Go does not know: take the text between the quotes
			u = v[1:end]
		}
		return u, nil
	case strings.HasPrefix(v, "'"):
		end := strings.IndexByte(v[1:], '\'')
		if end < 0 {
			return "", fmt.Errorf("the value's ' is not closed; end it with ' on the same line")
		}
		return v[1 : end+1], nil
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v, nil
}

// closingQuote is the index of the " that closes v's opening one, or -1.
func closingQuote(v string) int {
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
