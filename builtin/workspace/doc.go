// Package workspace is the built-in workspace server: one folder (the
// root) where a model reads, writes, edits, searches and organises files,
// and runs commands in persistent shells (package shell) and Python. It is
// served as an MCP server (tools read_file, write_file, edit_file,
// list_directory, tree, search_files, move_file, delete_file,
// execute_shell, execute_python) and gives the app's Workspace page the
// same shell sessions to attach a terminal to.
//
// Open a root, serve it with NewServer (a host runs Builtin, the same
// server, instead), and attach a terminal to the model's shell with
// Session. Risky says which tools should ask first. See Example (the file
// tools, a path escaping the root, the shell over MCP) and
// ExampleWorkspace_Session (a terminal on the model's shell).
//
// # Confinement
//
// Every file operation goes through an os.Root opened on the root, which
// resolves each path element itself (openat with O_NOFOLLOW) and refuses
// any that leaves the root: ".." above it, symbolic links pointing outside
// (or absolute ones), including links swapped in while a call runs.
// Before that, paths are checked for rules that need no file system: no
// NUL byte, at most MaxPathBytes (and MaxNameBytes per element), no
// Windows-style path (backslashes or a drive letter: refused, not
// translated). An absolute path is accepted only when it lies inside the
// root (the shell's pwd prints such paths) and is used relative to it;
// any other absolute path is refused as escaping the root.
//
// Only regular files are read or written: directories, named pipes,
// sockets and device files are refused, and files are opened
// non-blocking so a FIFO swapped in cannot hang a call. A hard link is the
// file itself, so os.Root cannot tell whether another link to it lies
// outside the root: files with more than one link are neither read nor
// written (write_file replaces files by renaming a new one over them, so
// it could not change an outside file anyway; it refuses them so the link
// is not silently broken). Deleting or moving a hard link only affects the
// link in the workspace and is allowed. Symbolic links inside the root
// are followed for reading; writes refuse a path that is itself a link.
//
// write_file and edit_file refuse a read-only file: one whose mode gives
// its owner no write permission, even when Switchboard runs as root (whom
// permission bits do not stop; like an editor's "readonly" warning, the
// mode is taken as the owner's word), and one the system does not let
// this process open for writing (ACLs, read-only mounts). Replacing it by
// renaming a new file over it would otherwise succeed with only the
// directory's permission. The error says to make it writable first.
//
// The shell and Python are not confined: they run as the user. They get a
// minimal environment (shell.MinimalEnv), so the app's secrets are not
// inherited, and every call of them should be approved (Risky).
//
// # Fresh workspaces
//
// Open writes MarkerName into a root it finds empty; while the marker is
// there the workspace is Fresh, made by Switchboard for the model, and
// Risky lets write_file and edit_file run there without asking. Each
// decision looks for the marker again (one lstat), so deleting it brings
// the approvals back at once, without a restart. The file tools refuse to
// write, move or delete the marker.
//
// # Listings
//
// list_directory and tree give a model text and the Workspace page
// structured content (Listing, TreeResult; both tools declare it as their
// outputSchema, as does read_file): every entry's name as it is, its type
// (file, dir, symlink, fifo, socket, device), a file's size, a link's
// target and what that leads to inside the workspace. In the text, a name
// that could be misread (white space at either end, control characters,
// " -> ", two spaces in a row, a leading quote or "[") is quoted with Go
// escapes, special files and links the file tools cannot follow say so,
// and tree marks a directory it did not open (the depth limit) as
// unlisted in its structured content.
//
// write_file writes a temporary file beside its target and renames it
// over the target; the temporary file is made, and removed on failure,
// through a handle on the directory opened once, so none stays behind
// when the path to it changes meanwhile, while the rename goes by path
// through the root like everything else.
//
// # The workspace
//
// `workspace__*` tools (`read_file`, `write_file`, `edit_file`, `list_directory`, `tree`,
// `search_files`, `move_file`, `delete_file`, `execute_shell`, `execute_python`) never reach
// outside the workspace folder: `..`, absolute paths elsewhere, symbolic links out (even one
// swapped in during a call), hard-linked files, devices and FIFOs are refused with the rule
// named. The shell is a real PTY session per name (`session`, default `default`) that keeps
// its variables and the model's own directory: the Workspace page's terminal shows the model's
// commands live and you can type there too, but your `cd` in it never moves the model's next
// command, which runs where its last one left off (the workspace at first, and after the shell
// restarted), and the model's `cd` leaves your prompt where it was; each call has a timeout (`timeoutMs`, 60 s by default) that
// interrupts the shell, so nothing more of the command runs, and kills
// everything it started (a command that made the shell ignore interrupts,
// `trap "" INT`, gets a new shell instead, before it can go on; one that
// traps them with a handler of its own goes on to its end, and the result
// says so; one that replaces the shell with another, `exec bash`, gets a new
// shell at once), output for the model is capped at 64 KiB with ANSI
// colours removed, and it starts from a minimal environment, so the app's own variables
// (keys) are not inherited. The shell itself is not sandboxed: that is why it always asks.
package workspace
