//go:build !linux

package pins

import "errors"

// startWatch has no watch on this system (fsnotify's kqueue opens every
// file of the folder, and Windows reports every write to the chat
// history beside the file): Version looks at the file every time.
func startWatch(string) (*watch, error) {
	return nil, errors.New("pins: no watch of the file on this system")
}
