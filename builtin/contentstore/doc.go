// Package contentstore is the built-in content store: named full-text
// stores of the user's documents, each a bleve index on disk, searched with
// BM25 and served as an MCP server (tools createStore, listStores,
// addContent, listContent, search, readContent, reindexContent,
// deleteContent, deleteStore).
//
// Open a root, Create a store, Add text, a file's bytes, a file or a
// folder, Search, Read around a hit; NewServer serves the stores over MCP,
// and Builtin is the same server as a host runs it. See Example (one
// document, searched and read), Example_folder (a folder with progress and
// a skipped binary) and ExampleNewServer (the MCP tools).
//
// # Layout
//
// Root holds one directory per store, named by its id (a slug of its name):
// store.json (name, description, analyzer, schema) and index/ (the bleve
// index), and beside them small files that are hints, never data:
// lock.json (who has the store open), counts.json (its counts when last
// closed), adding.json (an add under way) and interrupted.json (an add a
// crash cut short). Each document added is one "content" record keeping its
// whole extracted text (for readContent) plus its "chunks": runs of whole
// lines that keep Markdown headings with their text and overlap a little
// (package chunk). Search finds chunks and reports their line range, the
// lines holding the matched words and a snippet with the words in
// <mark>…</mark>. A content id is "<storeId>:<hash>", the hash of the
// file's absolute path, of the name of a file whose bytes were sent, or of
// the title and text, so adding the same thing again replaces it.
//
// # Analysis and schemas
//
// Stores made now have schema 2: text is analyzed by the store's language
// analyzer wrapped in identifierAnalyzer, which also indexes code
// identifiers by their parts (config.settings.timeout_ms, parse_config_file,
// parseConfigFile) and folds accents (naïve, Zürich), and documents carry
// sort keys so listContent pages them newest first in the index. A store's
// index names its analyzers and fields, so stores made before (schema 1)
// keep theirs: they work as they did, listStores notes what they lack, and
// their listing is sorted here instead (the same order). To move a store to
// schema 2, create a new one and add the documents again.
//
// # Limits
//
// A file, a file's bytes or a text over Options.MaxFileBytes (10 MiB) is
// refused, saying the sizes and to split it. readContent returns at most
// MaxReadLines lines and MaxReadBytes (256 KiB) of text, cutting a longer
// line at a character and saying where to read on (fromChar). Files of
// pseudo filesystems (/proc, /sys) and the places of credentials in the
// home folder (~/.ssh, ~/.gnupg, ~/.aws, …) are refused; a folder add stays
// on the filesystem it starts on and lists what it passes over (special
// files, links to folders, links whose target is gone, mount points) with
// why. Reads of a file end with the add's context, or when they stall.
//
// # Durability, sharing and locking
//
// A document and its chunks are committed in one bleve batch, and bleve
// returns from a batch only once it is persisted, so whatever Add reports
// survives a kill -9 of the process; a crash mid-batch loses that batch
// only and the store opens as before. Folders are walked and committed in
// batches of Options.BatchBytes of text, never read whole. An add of files
// keeps a journal (adding.json) that a crash leaves behind; the next
// process to list the store reports the add as interrupted, with the files
// it did not get to, until the same folder is added again.
//
// An open store holds bolt's file lock, so one process at a time uses it;
// a store is opened on use and closed again after Options.IdleClose (1 s)
// without one, so the window, the daemon, the CLI and 'switchboard builtin
// content-store' share stores in turn. A process refused a store gets
// ErrStoreLocked after Options.OpenTimeout, naming the process that has it
// (from its lock.json) and what to do; a search of every store waits for
// all held stores at once. List counts a store that is not open here from
// counts.json while its index is unchanged, and reports one another
// process has open (InUse) at once, without waiting for it.
//
// Nothing deletes a store's data by itself. An index folder holding no file
// (a crash in Create) is made anew; one whose index_meta.json is missing
// gets that file (it only names the index type) written again and opens
// with its documents. A store whose files cannot be read (store.json, or
// the index) is ErrStoreDamaged: List shows it with Error saying what to
// do, a search of every store lists it in Unavailable, and DeleteStore
// removes it. DeleteStore stops an add running into the store (in this
// process), and until the store is gone other calls are told it is being
// deleted.
//
// Stores is safe for concurrent use; searches run while an ingest commits.
// Close stops running adds and searches and closes every store.
package contentstore
