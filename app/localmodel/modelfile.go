package localmodel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

// A model may come split in parts (llama.cpp's gguf-split, as Hugging Face
// publishes large models): NAME-00001-of-00003.gguf, -00002-, -00003-, in
// one folder. llama-server is given the first part and opens the others
// by their names (llama_split_path: "%s-%05d-of-%05d.gguf"); each part
// says its place in its metadata (split.no from 0, split.count).

// splitName matches a part's file name: the prefix, its number and the count.
var splitName = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.gguf$`)

// Split keys of a part's metadata.
const (
	keySplitNo    = "split.no"
	keySplitCount = "split.count"
)

// Parts is the files of the model at path by their names: the parts of a
// split model, for any of its parts, else path alone. Whether they exist
// is CheckModel's to say.
func Parts(path string) []string {
	m := splitName.FindStringSubmatch(path)
	if m == nil {
		return []string{path}
	}
	count, _ := strconv.Atoi(m[3])
	if count < 1 {
		return []string{path}
	}
	parts := make([]string, count)
	for i := range parts {
		parts[i] = splitPath(m[1], i, count)
	}
	return parts
}

// splitPath is part i (from 0) of count of the model whose parts' names
// start with prefix.
func splitPath(prefix string, i, count int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.gguf", prefix, i+1, count)
}

// ModelSize is the bytes of the model at path: every part of a split
// model that is there, else the file's size.
func ModelSize(path string) (int64, error) {
	var total int64
	for i, p := range Parts(path) {
		st, err := os.Stat(p)
		if err != nil {
			if i == 0 || p == path {
				return 0, err
			}
			continue // CheckModel says a part is missing
		}
		total += st.Size()
	}
	return total, nil
}

// ErrModelFile says a GGUF file cannot run as a model as it is; the
// *ModelFileError that wraps it says why and what to do.
var ErrModelFile = errors.New("the model file cannot run")

// ModelFileError is a GGUF file llama.cpp would refuse to load, found
// before it is tried: Problem says what is wrong and what to do, in words.
type ModelFileError struct {
	File    string // the file the problem is in (a part of a split model, maybe)
	Problem string
}

func (e *ModelFileError) Error() string { return filepath.Base(e.File) + " cannot run: " + e.Problem }
func (e *ModelFileError) Unwrap() error { return ErrModelFile }

// CheckModel reads the GGUF model at path and checks what llama.cpp
// checks when it loads one, so a file that cannot run is refused when it
// is chosen rather than when a chat starts it: a part of a split model
// must be its first part, its other parts must be beside it (each saying
// its place), and every part must hold all its tensors' data (a download
// or copy cut short does not). It returns the first part's metadata; an
// error is a *ModelFileError, or gguf's for a file that is not GGUF.
func CheckModel(path string) (*gguf.File, error) {
	f, err := gguf.ReadFile(path)
	if err != nil {
		return nil, err
	}
	no, count := int(f.Uint(keySplitNo)), int(f.Uint(keySplitCount))
	if count <= 1 {
		return f, checkData(path, f)
	}
	m := splitName.FindStringSubmatch(path)
	if no != 0 {
		first := "its first part"
		if m != nil {
			first = fmt.Sprintf("its first part, %s", filepath.Base(splitPath(m[1], 0, count)))
		}
		return nil, &ModelFileError{File: path, Problem: fmt.Sprintf("it is part %d of %d of a model split in parts: choose %s, which brings the others", no+1, count, first)}
	}
	if m == nil || m[2] != "00001" || m[3] != fmt.Sprintf("%05d", count) {
		return nil, &ModelFileError{File: path, Problem: fmt.Sprintf("it is the first of %d parts of a split model, but is not named as llama.cpp finds the others (NAME-00001-of-%05d.gguf, then -00002-…): give the parts back the names they were published with", count, count)}
	}
	if err := checkData(path, f); err != nil {
		return nil, err
	}
	for i := 1; i < count; i++ {
		p := splitPath(m[1], i, count)
		pf, err := gguf.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil, &ModelFileError{File: path, Problem: fmt.Sprintf("it is the first of %d parts of a split model, and part %d, %s, is not beside it: put every part in the same folder, then choose the first again", count, i+1, filepath.Base(p))}
		}
		if err != nil {
			return nil, &ModelFileError{File: p, Problem: fmt.Sprintf("it is part %d of %d and cannot be read as GGUF: download that part again (%v)", i+1, count, err)}
		}
		if int(pf.Uint(keySplitNo)) != i {
			return nil, &ModelFileError{File: p, Problem: fmt.Sprintf("it says it is part %d, not part %d of %d: the parts are of different models or renamed; download them again", pf.Uint(keySplitNo)+1, i+1, count)}
		}
		if err := checkData(p, pf); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// checkData checks that the file at path holds the data of all the
// tensors f lists.
func checkData(path string, f *gguf.File) error {
	end, ok := f.DataEnd()
	if !ok {
		return nil // a tensor type newer than this app: llama.cpp will say
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() < end {
		return &ModelFileError{File: path, Problem: fmt.Sprintf("it is cut short: it has %s of the %s its tensors need (a download or copy that did not finish): download or copy it again", Size(st.Size()), Size(end))}
	}
	return nil
}
