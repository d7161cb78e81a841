package clients

// SyntaxError is an app's file that cannot be parsed: Err names the
// file, line and column. Nothing is written to such a file.
type SyntaxError struct {
	Path string
	Err  error
	// Line and Col are where the parser stopped (1-based; 0 when it did
	// not say), and Reason its message without the path and position.
	Line, Col int
	Reason    string
}

func (e *SyntaxError) Error() string {
	return e.Err.Error() + "; fix the file (or let the app rewrite it) first: Switchboard does not change a file it cannot read"
}

// Unwrap returns ErrSyntax and the parser's error.
func (e *SyntaxError) Unwrap() []error { return []error{ErrSyntax, e.Err} }

// FileError is a failure to read or write an app's file.
type FileError struct {
	Op   string // "read", "write", "back up"
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Op + " " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }
