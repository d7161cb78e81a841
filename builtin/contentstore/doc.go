// Package contentstore is the built-in content store: named full-text
// stores of the user's documents, each a bleve index on disk, searched with
// BM25 and served as an MCP server (tools createStore, listStores,
// addContent, listContent, search, readContent, reindexContent,
// deleteContent, deleteStore).
//
// Open a root, Create a store, Add text or a folder, Search, Read around
// a hit; NewServer serves the stores over MCP, and Builtin is the same
// server as a host runs it. See Example (one document, searched and read),
// Example_folder (a folder with progress and a skipped binary) and
// ExampleNewServer (the MCP tools).
//
// # Layout
//
// Root holds one directory per store, named by its id (a slug of its name):
// store.json (name, description, analyzer) and index/ (the bleve index).
// Each document added is one "content" record keeping its whole extracted
// text (for readContent) plus its "chunks": runs of whole lines that keep
// Markdown headings with their text and overlap a little (package chunk).
// Search finds chunks and reports their line range, the lines holding the
// matched words and a snippet with the words in <mark>…</mark>. A content
// id is "<storeId>:<hash>", the hash of the file's absolute path or of the
// title and text, so adding the same thing again replaces it.
//
// # Durability and locking
//
// A document and its chunks are committed in one bleve batch, and bleve
// returns from a batch only once it is persisted, so whatever Add reports
// survives a kill -9 of the process; a crash mid-batch loses that batch
// only and the store opens as before. Folders are walked and committed in
// batches of Options.BatchBytes of text, never read whole. Each open store
// holds bolt's file lock: a second process opening it gets ErrStoreLocked
// after Options.OpenTimeout instead of hanging.
//
// Nothing deletes a store's data by itself. An index folder holding no file
// (a crash in Create) is made anew; one whose index_meta.json is missing
// gets that file (it only names the index type) written again and opens
// with its documents. A store whose files cannot be read (store.json, or
// the index) is ErrStoreDamaged: List shows it with Error saying what to
// do, a search of every store lists it in Unavailable, and DeleteStore
// removes it.
//
// Stores is safe for concurrent use; searches run while an ingest commits.
package contentstore
