package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
)

// MarkerName is the file Open writes into a root it found empty (or
// created): while it is there, the workspace is "fresh", made by
// Switchboard for the model, and writing files in it needs no approval.
// Each decision looks for it again, so deleting it brings the approvals
// back at once (and putting it back lifts them again). The file tools
// refuse to write, move or delete it, so a model cannot mark a user's
// folder fresh; the shell could, but every shell command needs approval.
const MarkerName = ".switchboard-workspace"

const markerText = `This folder was created by Switchboard as a workspace for AI models.
While this file exists, Switchboard lets models write and edit files here
without asking. Delete it to require approval for every change.
`

// Options configures a workspace.
type Options struct {
	// Root is the workspace's directory; it is created if missing.
	Root string
	// Path is the PATH of the shell and of Python ("": the app's PATH).
	Path string
	// Shell is the shell to run (see shell.Options.Shell); "" finds bash, else sh.
	Shell string
}

// Workspace is a directory the file tools are confined to, plus the shell
// sessions that start in it. Its methods are safe for concurrent use.
type Workspace struct {
	root   *os.Root
	dir    string   // absolute root, as configured
	bases  []string // "dir/" and its symlink-free form: absolute paths accepted as inside
	env    []string
	shells *shell.Pool

	ctx    context.Context // ends running Python at Close
	cancel context.CancelFunc
	mu     sync.Mutex     // orders wg.Add (in run) before wg.Wait (in Close)
	wg     sync.WaitGroup // running Python
	closed atomic.Bool
	once   sync.Once
}

// Open opens (creating if needed) the workspace at opts.Root. No shell
// starts until one is asked for.
func Open(opts Options) (*Workspace, error) {
	if opts.Root == "" {
		return nil, invalid("the workspace needs a root directory")
	}
	dir, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", opts.Root, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the workspace root %s: %w; choose a folder you can write to", dir, err)
	}
	if err := markFresh(dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open the workspace root %s: %w", dir, err)
	}
	// Prefixes of absolute paths inside the root: as given and with
	// symlinks resolved, each ending in "/".
	bases := []string{strings.TrimSuffix(filepath.ToSlash(dir), "/") + "/"}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		bases = append(bases, strings.TrimSuffix(filepath.ToSlash(real), "/")+"/")
	}
	env := shell.MinimalEnv(opts.Path)
	w := &Workspace{
		root: root, dir: dir, bases: bases, env: env,
		shells: shell.NewPool(shell.Options{Dir: dir, Env: env, Shell: opts.Shell}),
	}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	return w, nil
}

// markFresh writes the marker into an empty root.
func markFresh(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read the workspace root %s: %w", dir, err)
	}
	if len(ents) == 0 {
		if err := os.WriteFile(filepath.Join(dir, MarkerName), []byte(markerText), 0o644); err != nil {
			return fmt.Errorf("mark the new workspace %s: %w", dir, err)
		}
	}
	return nil
}

// Root is the workspace's absolute root directory.
func (w *Workspace) Root() string { return w.dir }

// Fresh reports whether the root carries MarkerName now (a regular file,
// not a link): Switchboard created it for the model, so file writes there
// need no approval. It costs one lstat, so every decision asks again and
// follows the marker's removal (or return) without a restart. A closed
// workspace is not fresh.
func (w *Workspace) Fresh() bool {
	if w.closed.Load() {
		return false
	}
	fi, err := w.root.Lstat(MarkerName)
	return err == nil && fi.Mode().IsRegular()
}

// Risky reports whether the chat engine should ask the user before a call
// of tool runs: always for execute_shell, execute_python, delete_file and
// move_file (and any tool it does not know), for write_file and edit_file
// unless the workspace is Fresh at the time of asking, never for the
// read-only tools. tool may carry the router's "server__" prefix.
func (w *Workspace) Risky(tool string) bool {
	if i := strings.LastIndex(tool, "__"); i >= 0 {
		tool = tool[i+2:]
	}
	switch tool {
	case "read_file", "list_directory", "tree", "search_files":
		return false
	case "write_file", "edit_file":
		return !w.Fresh()
	}
	return true
}

// Sessions describes the shell sessions, sorted by name.
func (w *Workspace) Sessions() []shell.Info { return w.shells.Sessions() }

// Session returns the shell session called name ("" is "default"),
// starting it in the root if it does not run yet. The Workspace page
// attaches its terminal to it; the model's execute_shell uses the same.
func (w *Workspace) Session(name string) (*shell.Session, error) {
	if w.closed.Load() {
		return nil, ErrClosed
	}
	return w.shells.Session(name)
}

func (w *Workspace) check() error {
	if w.closed.Load() {
		return rule(ErrClosed, "restart Switchboard")
	}
	return nil
}

// run registers a process Close must wait for; call done when it ended.
func (w *Workspace) run() (done func(), err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.check(); err != nil {
		return nil, err
	}
	w.wg.Add(1)
	return w.wg.Done, nil
}

// Close stops every shell (hang-up, terminate, then kill; see
// shell.Session.Close) and running Python, waits for them or ctx, and
// closes the root. Later calls fail with ErrClosed.
func (w *Workspace) Close(ctx context.Context) error {
	var err error
	w.once.Do(func() {
		w.mu.Lock()
		w.closed.Store(true)
		w.mu.Unlock()
		w.cancel()
		err = w.shells.Close(ctx)
		done := make(chan struct{})
		go func() {
			w.wg.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-ctx.Done():
			err = errors.Join(err, fmt.Errorf("wait for python to stop: %w", ctx.Err()))
		}
		err = errors.Join(err, w.root.Close())
	})
	return err
}
