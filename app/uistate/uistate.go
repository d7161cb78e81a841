// Package uistate owns ui.json in the data directory: what the window
// remembers between runs that is not configuration — whether the first-run
// welcome was done or skipped, and the window's size and position.
//
// It is kept apart from config.json so that moving the window never rewrites
// the user's servers and settings (nor wakes every process following them).
//
//	s, _ := uistate.Load(dir.UIState())
//	s.WelcomeDone = true
//	err := uistate.Save(dir.UIState(), s)
package uistate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// State is the content of ui.json.
type State struct {
	// WelcomeDone is set once the welcome page was finished or skipped; it is
	// never shown again after that.
	WelcomeDone bool `json:"welcomeDone,omitempty"`
	// Window is the last size and position of the main window (zero: none yet).
	Window Window `json:"window,omitzero"`
}

// Window is a window's geometry in screen pixels.
type Window struct {
	X         int  `json:"x"`
	Y         int  `json:"y"`
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	Maximised bool `json:"maximised,omitempty"`
}

// Usable reports whether w was saved and is at least minW×minH, so a window
// shrunk to nothing (or a hand-edited file) never opens unusable.
func (w Window) Usable(minW, minH int) bool {
	return w.Width >= minW && w.Height >= minH && w.Width <= 16384 && w.Height <= 16384
}

// Error is a failure to read or write ui.json.
type Error struct {
	Op   string // "read", "parse", "write"
	Path string
	Err  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %v (delete the file to start afresh; it only holds window state)", e.Op, e.Path, e.Err)
}
func (e *Error) Unwrap() error { return e.Err }

// Load reads the state at path; a missing file is the zero State.
func Load(path string) (State, error) {
	var s State
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, &Error{Op: "read", Path: path, Err: err}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return State{}, &Error{Op: "parse", Path: path, Err: err}
	}
	return s, nil
}

// Save writes s to path atomically (temp file, rename), so a crash never
// leaves half a file.
func Save(path string, s State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return &Error{Op: "write", Path: path, Err: err}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ui-*.json")
	if err != nil {
		return &Error{Op: "write", Path: path, Err: err}
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return &Error{Op: "write", Path: path, Err: err}
	}
	if err := tmp.Close(); err != nil {
		return &Error{Op: "write", Path: path, Err: err}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return &Error{Op: "write", Path: path, Err: err}
	}
	return nil
}

// Update loads the state at path, lets fn change it and saves it.
func Update(path string, fn func(*State)) error {
	s, err := Load(path)
	if err != nil {
		var ue *Error
		if !errors.As(err, &ue) || ue.Op != "parse" {
			return err
		}
		s = State{} // a damaged file is replaced, not fatal
	}
	fn(&s)
	return Save(path, s)
}
