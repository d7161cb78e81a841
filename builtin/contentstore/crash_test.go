package contentstore

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func child(t *testing.T, ctx context.Context, role, root, storeID string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+role, envRoot+"="+root, envStore+"="+storeID)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestCrashDuringIngest kills a child process (SIGKILL) while it ingests and
// checks that the store reopens and every document the child acknowledged
// is searchable and readable.
func TestCrashDuringIngest(t *testing.T) {
	root := t.TempDir()
	s, err := Open(testOptions(root))
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Create(t.Context(), "Crash", "", "")
	if err != nil {
		t.Fatal(err)
	}
	s.Close() // the child takes the store

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := child(t, ctx, childIngest, root, info.ID)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const killAfter = 40
	acked := map[int]string{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var i int
		var id string
		if _, err := fmt.Sscanf(sc.Text(), "ack %d %s", &i, &id); err != nil {
			t.Fatalf("child said %q", sc.Text())
		}
		acked[i] = id
		if len(acked) == killAfter {
			if err := cmd.Process.Kill(); err != nil { // SIGKILL, mid-ingest of the next document
				t.Fatal(err)
			}
			break
		}
	}
	// Whatever was acknowledged before the kill landed counts too.
	for sc.Scan() {
		var i int
		var id string
		if _, err := fmt.Sscanf(sc.Text(), "ack %d %s", &i, &id); err == nil {
			acked[i] = id
		}
	}
	_ = cmd.Wait()
	if len(acked) < killAfter {
		t.Fatalf("child acknowledged only %d documents", len(acked))
	}

	s = openStores(t, testOptions(root))
	for i, id := range acked {
		res, err := s.Search(t.Context(), Query{StoreID: info.ID, Text: fmt.Sprintf("crashtok%05d", i)})
		if err != nil || len(res.Hits) == 0 || res.Hits[0].ContentID != id {
			t.Fatalf("acknowledged document %d (%s) not found after the crash: %+v, %v", i, id, res, err)
		}
		ex, err := s.Read(t.Context(), id, res.Hits[0].MatchLines[0], res.Hits[0].MatchLines[0])
		if err != nil || ex.Text != fmt.Sprintf("unique token crashtok%05d", i) {
			t.Fatalf("read document %d = %+v, %v", i, ex, err)
		}
	}
	// The store still takes writes.
	if _, err := s.Add(t.Context(), info.ID, Input{Text: "after the crash"}); err != nil {
		t.Fatal(err)
	}
	list, err := s.List(t.Context())
	if err != nil || len(list) != 1 || list[0].Documents < uint64(len(acked))+1 {
		t.Fatalf("list = %+v, %v", list, err)
	}
}

// TestSecondProcessGetsClearError holds a store open and checks that another
// process opening it fails quickly with ErrStoreLocked instead of hanging.
func TestSecondProcessGetsClearError(t *testing.T) {
	root := t.TempDir()
	opts := testOptions(root)
	opts.IdleClose = -1 // held until Close
	s := openStores(t, opts)
	info, err := s.Create(t.Context(), "Held", "", "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	out, err := child(t, ctx, childOpen, root, info.ID).Output()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	// The holder is named: this process, by its pid and command.
	want := fmt.Sprintf(`store "held" is in use by process %d (contentstore.test, since `, os.Getpid())
	if code != 3 || !strings.Contains(string(out), want) || !strings.Contains(string(out), "a Switchboard lets go of a store a second after its last use") ||
		!strings.Contains(string(out), "listed with error: "+want) ||
		!strings.Contains(string(out), "searched all, unavailable: 1") {
		t.Fatalf("child exit %d (%v), output %q; want exit 3 and %q", code, err, out, want)
	}
	// The child reports how long its open took: about OpenTimeout, not a hang.
	d, _, _ := strings.Cut(strings.TrimPrefix(string(out), "after "), ":")
	took, _ := time.ParseDuration(d)
	if took < 400*time.Millisecond || took > 3*time.Second {
		t.Fatalf("second open took %s (%q); want about the 500ms open timeout", took, out)
	}
	// Once this process lets go, the other can open it.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	out, err = child(t, ctx, childOpen, root, info.ID).Output()
	if err != nil || !strings.Contains(string(out), "<nil>") {
		t.Fatalf("open after close: %q, %v", out, err)
	}
}

// TestInterruptedAddIsReported kills a process mid-way through adding a
// folder (at 30 of its 50 files) and checks that the next process to list
// the store says which add was cut short and which files it left out, and
// that adding the folder again clears that. Nothing used to say so.
func TestInterruptedAddIsReported(t *testing.T) {
	root := t.TempDir()
	s, err := Open(testOptions(root))
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Create(t.Context(), "Cut", "", "")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	dir := t.TempDir()
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte(fmt.Sprintf("file number %d\n", i)), 0o600)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := child(t, ctx, childFolder, root, info.ID)
	cmd.Env = append(cmd.Env, envFolder+"="+dir, envStopAt+"=30")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "files 30" {
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	s = openStores(t, testOptions(root))
	list, err := s.List(t.Context())
	if err != nil || len(list) != 1 || list[0].Interrupted == nil {
		t.Fatalf("list = %+v, %v", list, err)
	}
	in := list[0].Interrupted
	if in.Source != dir || in.Done != 30 || in.Total != 50 || in.MissingCount != 20 || len(in.Missing) != maxMissing ||
		in.Missing[0] != filepath.Join(dir, "f30.txt") || !strings.Contains(in.Message, "was cut short when the process adding it (contentstore.test) ended, after 30 of its 50 files; 20 are missing (f30.txt, f31.txt") ||
		!strings.Contains(in.Message, "add the folder again") {
		t.Fatalf("interrupted = %+v", in)
	}
	if res, err := s.Search(t.Context(), Query{StoreID: info.ID, Text: "file"}); err != nil || res.Total != 30 {
		t.Fatalf("%d of the files searchable, %v; want the 30 committed", res.Total, err)
	}
	if _, err := s.Add(t.Context(), info.ID, Input{Path: dir}); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(t.Context()); list[0].Interrupted != nil || list[0].Documents != 50 {
		t.Fatalf("after adding the folder again: %+v", list[0])
	}
}
