package contentstore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The journal of a running add: the process adding files or a folder
// writes addingFile beside the store's index when it starts, brings it up
// to date after each committed batch and removes it when the add ends,
// however it ends. A process that dies mid-add (a crash, kill -9) leaves
// it behind: the next process to open the store (which it can only do once
// the dead one's file lock is gone) turns it into interruptedFile, naming
// what the add left out, and List reports that until the same folder or
// file is added again. Text adds are not journaled: their caller has the
// text and sees the add fail.
const (
	addingFile      = "adding.json"
	interruptedFile = "interrupted.json"
)

// maxMissing bounds the files an Interrupted lists.
const maxMissing = 20

// journal is a running add.
type journal struct {
	PID     int       `json:"pid"`
	Process string    `json:"process"`
	Started time.Time `json:"started"`
	// Source is the path added, or the name of a file sent as bytes.
	Source string `json:"source"`
	Folder bool   `json:"folder,omitempty"`
	Total  int    `json:"total"`
	// Done is how many files (in walk order) were processed and committed.
	Done int `json:"done"`
}

// Interrupted is an add that its process's end cut short.
type Interrupted struct {
	Source  string    `json:"source"`
	Started time.Time `json:"started"`
	Process string    `json:"process,omitempty"`
	Total   int       `json:"total"`
	Done    int       `json:"done"`
	// Missing are the first files (of a folder: in the order it is
	// walked) the add did not get to; MissingCount counts them all.
	Missing      []string `json:"missing"`
	MissingCount int      `json:"missingCount"`
	// Message says it in a sentence, and what to do.
	Message string `json:"message"`
}

// begin records that this process starts adding source to the store.
func (ing *ingest) begin(source string, folder bool) {
	ing.journal = &journal{PID: os.Getpid(), Process: processName(), Started: time.Now().UTC().Truncate(time.Second), Source: source, Folder: folder}
	ing.saveJournal()
}

func (ing *ingest) saveJournal() {
	if ing.journal == nil {
		return
	}
	ing.journal.Total, ing.journal.Done = ing.progress.Total, ing.progress.Files
	if b, err := json.Marshal(ing.journal); err == nil {
		_ = writeAtomic(ing.st.dir, addingFile, b)
	}
}

// end removes the journal: the add is over. One that completed also
// clears an interrupted add of the same source (or of a file in it).
func (ing *ingest) end(completed bool) {
	if ing.journal == nil {
		return
	}
	_ = os.Remove(filepath.Join(ing.st.dir, addingFile))
	if !completed {
		return
	}
	if in := readInterrupted(ing.st.dir); in != nil && within(in.Source, ing.journal.Source) {
		_ = os.Remove(filepath.Join(ing.st.dir, interruptedFile))
	}
}

// within reports whether path is root or lies under it (for names of
// files sent as bytes, which have no folder: whether they are the same).
func within(path, root string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

func readJournal(dir string) *journal {
	b, err := os.ReadFile(filepath.Join(dir, addingFile))
	if err != nil {
		return nil
	}
	var j journal
	if json.Unmarshal(b, &j) != nil {
		return nil
	}
	return &j
}

func readInterrupted(dir string) *Interrupted {
	b, err := os.ReadFile(filepath.Join(dir, interruptedFile))
	if err != nil {
		return nil
	}
	var in Interrupted
	if json.Unmarshal(b, &in) != nil {
		return nil
	}
	return &in
}

// interrupted returns the add of store id that its process's end cut
// short, if any. A journal left by a process that is gone (or that is
// this one with the store open: the journal was found when it opened) is
// turned into an Interrupted once, which is kept until the same source
// is added again.
func (s *Stores) interrupted(id, dir string) *Interrupted {
	if in := readInterrupted(dir); in != nil {
		return in
	}
	j := readJournal(dir)
	if j == nil || s.adding(id) {
		return nil // none, or an add running here
	}
	if li := readLockInfo(dir); li != nil && li.PID == j.PID && j.PID != os.Getpid() {
		return nil // running in the process that holds the store
	}
	return settleJournal(dir, j)
}

// adding reports whether an add into store id runs in this process.
func (s *Stores) adding(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.open[id]
	return st != nil && len(st.write) > 0
}

// settleJournal turns a dead add's journal into an Interrupted: which
// files it did not get to, found by walking its folder again up to where
// it stopped (the walk's order is the add's).
func settleJournal(dir string, j *journal) *Interrupted {
	in := &Interrupted{Source: j.Source, Started: j.Started, Process: j.Process, Total: j.Total, Done: j.Done, Missing: []string{}}
	if j.Folder {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		i := 0
		_ = walkFiles(ctx, j.Source, func(p string, err error) error {
			i++
			if i <= j.Done || err != nil {
				return nil // done, or one the add skips anyway
			}
			in.MissingCount++
			if len(in.Missing) < maxMissing {
				in.Missing = append(in.Missing, p)
			}
			return nil
		})
		cancel()
	} else if j.Done == 0 {
		in.Missing, in.MissingCount = []string{j.Source}, 1
	}
	in.Message = interruptedMessage(in)
	if b, err := json.Marshal(in); err == nil {
		_ = writeAtomic(dir, interruptedFile, b)
	}
	_ = os.Remove(filepath.Join(dir, addingFile))
	return in
}

func interruptedMessage(in *Interrupted) string {
	who := "the process adding it"
	if in.Process != "" {
		who += " (" + in.Process + ")"
	}
	when := in.Started.Local().Format("2006-01-02 15:04")
	switch {
	case in.MissingCount == 0:
		return fmt.Sprintf("adding %s, started %s, was cut short when %s ended, after %d of its %d files; "+
			"the files it did not get to could not be listed (the folder changed or is gone); add it again to be sure "+
			"(files already in the store are replaced, not doubled)", in.Source, when, who, in.Done, in.Total)
	case len(in.Missing) == 1 && in.MissingCount == 1 && in.Missing[0] == in.Source:
		return fmt.Sprintf("adding %s, started %s, was cut short when %s ended; it is not in the store: add it again", in.Source, when, who)
	}
	names := make([]string, len(in.Missing))
	for i, p := range in.Missing {
		names[i] = filepath.Base(p)
	}
	list := strings.Join(names[:min(5, len(names))], ", ")
	if in.MissingCount > 5 {
		list += fmt.Sprintf(" and %d more", in.MissingCount-5)
	}
	return fmt.Sprintf("adding %s, started %s, was cut short when %s ended, after %d of its %d files; %d are missing (%s): "+
		"add the folder again (files already in the store are replaced, not doubled)", in.Source, when, who, in.Done, in.Total, in.MissingCount, list)
}
