package contentstore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// lockFile names who holds a store open: written beside its index by the
// process that opens it (holding bolt's file lock) and removed when that
// process closes it, so another process refused the store can say who has
// it. A crash leaves it behind; the next opener writes its own.
const lockFile = "lock.json"

type lockInfo struct {
	PID     int       `json:"pid"`
	Process string    `json:"process"`
	Since   time.Time `json:"since"`
}

// writeLockInfo records this process as the store's holder. It is a hint
// only, so a failure to write it is ignored.
func writeLockInfo(dir string) {
	b, err := json.Marshal(lockInfo{PID: os.Getpid(), Process: processName(), Since: time.Now().Truncate(time.Second)})
	if err == nil {
		writeQuick(dir, lockFile, b)
	}
}

func removeLockInfo(dir string) { _ = os.Remove(filepath.Join(dir, lockFile)) }

// readLockInfo reads the store's holder; nil when there is none, or the
// process it names is gone.
func readLockInfo(dir string) *lockInfo {
	b, err := os.ReadFile(filepath.Join(dir, lockFile))
	if err != nil {
		return nil
	}
	var li lockInfo
	if json.Unmarshal(b, &li) != nil || li.PID <= 0 || !pidAlive(li.PID) {
		return nil
	}
	return &li
}

// describe names the holder: "process 4242 (switchboard daemon, since 14:02:05)".
func (li *lockInfo) describe() string {
	if li == nil {
		return ""
	}
	what := li.Process
	if li.PID == os.Getpid() {
		what = "this process"
	}
	if what == "" {
		return fmt.Sprintf("process %d (since %s)", li.PID, li.Since.Local().Format(time.TimeOnly))
	}
	return fmt.Sprintf("process %d (%s, since %s)", li.PID, what, li.Since.Local().Format(time.TimeOnly))
}

// processName is what this process is, from its command line:
// "switchboard daemon", "switchboard builtin content-store", or "the
// Switchboard window" for the app run without a command. Flags, and
// arguments that look like paths, are left out.
func processName() string {
	if len(os.Args) == 0 {
		return ""
	}
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	var words []string
	for i := 1; i < len(os.Args) && len(words) < 3; i++ {
		a := os.Args[i]
		switch {
		case a == "--data-dir" || a == "-data-dir":
			i++ // and its value
		case strings.HasPrefix(a, "-"), strings.ContainsAny(a, `/\.`):
		default:
			words = append(words, a)
		}
	}
	if len(words) == 0 && name == "switchboard" {
		return "the Switchboard window"
	}
	return strings.Join(append([]string{name}, words...), " ")
}

// writeQuick writes dir/name through a temporary file and a rename, so a
// reader sees the old file or the new one; without fsync, for files that
// are hints a crash may lose.
func writeQuick(dir, name string, data []byte) {
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, name)) != nil {
		_ = os.Remove(tmp.Name())
	}
}
