package contentstore

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// Builtin is the content store as a built-in server. Its Config.Root is the
// directory of the stores (<data dir>/stores).
var Builtin = func() builtin.Server {
	b := identity
	b.New = func(cfg builtin.Config) (*server.MCPServer, func() error, error) {
		st, err := Open(Options{Root: cfg.Root})
		if err != nil {
			return nil, nil, err
		}
		return NewServer(st), st.Close, nil
	}
	return b
}()

// identity is Builtin without its constructor (which refers back to it).
var identity = builtin.Server{
	Name:        builtin.ContentStore,
	Title:       "Content store",
	Description: "Full-text search (BM25) over documents the user added: notes, docs, web pages, data files and code.",
	Version:     "1.0.0",
	Instructions: `The content store holds documents the user added, in named stores, for full-text search.
To answer from them: listStores (ids and what each holds), then search (BM25; words are stemmed; "quoted phrases" match exactly; +word or +"phrase" must appear, -word or -"phrase" must not; omit storeId to search all stores).
Each hit has a contentId and a line range: call readContent with them, widened by some lines, to read the context before answering, and cite the title and lines.
To add material: createStore once, then addContent with text or with the absolute path of a file or folder.`,
}

// NewServer exposes stores as an MCP server with the tools createStore,
// listStores, addContent, search, readContent, deleteContent and
// deleteStore. Bad input is a tool result with isError set, never a
// protocol error. The caller still owns (and closes) stores.
func NewServer(s *Stores) *server.MCPServer {
	srv := identity.MCPServer()
	h := handlers{s}
	srv.AddTools(
		server.ServerTool{Tool: createStoreTool, Handler: h.createStore},
		server.ServerTool{Tool: listStoresTool, Handler: h.listStores},
		server.ServerTool{Tool: addContentTool, Handler: h.addContent},
		server.ServerTool{Tool: searchTool, Handler: h.search},
		server.ServerTool{Tool: readContentTool, Handler: h.readContent},
		server.ServerTool{Tool: deleteContentTool, Handler: h.deleteContent},
		server.ServerTool{Tool: deleteStoreTool, Handler: h.deleteStore},
		server.ServerTool{Tool: listContentTool, Handler: h.listContent},
		server.ServerTool{Tool: reindexContentTool, Handler: h.reindexContent},
	)
	return srv
}

// scalar is the schema of a metadata or filter value. anyOf rather than a
// type array: clients that map tool schemas onto a one-type dialect (the
// OpenAPI subset of Gemini function declarations) reject type arrays.
var scalar = map[string]any{"anyOf": []any{
	map[string]any{"type": "string"}, map[string]any{"type": "number"}, map[string]any{"type": "boolean"},
}}

var (
	createStoreTool = mcp.NewTool("createStore",
		mcp.WithDescription("Create a new, empty content store: a named collection of documents for full-text search. "+
			"Returns the store's id, which addContent and search take as storeId. Store names are unique; "+
			"call listStores first to reuse an existing store instead."),
		mcp.WithTitleAnnotation("Create content store"),
		mcp.WithString("name", mcp.Required(), mcp.Description("Short name, e.g. \"Project docs\"."), mcp.MaxLength(maxNameLen)),
		mcp.WithString("description", mcp.Description("What the store holds, so a model later knows when to search it."), mcp.MaxLength(maxDescriptionLen)),
		mcp.WithString("analyzer", mcp.Description("Language of the text, for stemming: \"en\" (default) or another bleve analyzer "+
			"(de, fr, es, it, pt, nl, ru, sv, da, fi, no, tr, ar, hi); \"cjk\" for mostly Chinese/Japanese/Korean text; "+
			"\"standard\" or \"simple\" for no stemming. CJK text is findable in every store."), mcp.Enum(Analyzers...)),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	listStoresTool = mcp.NewTool("listStores",
		mcp.WithDescription("List the content stores: id, name, description, analyzer, number of documents and chunks, size on disk "+
			"(a store another program is using has inUse and an error saying who; an add cut short by a crash is under interrupted, "+
			"with the files it left out), and maxFileBytes, the largest file or text addContent takes. "+
			"Call this first to find the storeId to search or add to."),
		mcp.WithTitleAnnotation("List content stores"),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	addContentTool = mcp.NewTool("addContent",
		mcp.WithDescription("Add a document to a store so it can be searched. Pass one of `text` (with a `title`), `path`: "+
			"the absolute path (or ~/…) of a file or a folder on this computer, or a file's bytes as base64 `data` with its `fileName`. "+
			"Folders are added recursively, staying on the filesystem they start on; hidden files, binaries, links to folders, "+
			"special files and files over 10 MB are skipped and listed. Text over 10 MB is refused too: split it. "+
			"Supported: plain text (UTF-8, UTF-16 with a byte order mark, Latin-1), Markdown, HTML (tags are removed), JSON, CSV, "+
			"source code and PDF (its text layer; scanned or password-protected PDFs are reported); office documents are not: save them as PDF or text. "+
			"Files in the places where keys and passwords are kept (~/.ssh, ~/.gnupg, ~/.aws, ~/.config/gcloud, ~/.kube, ~/.docker, "+
			"~/.netrc, ~/.git-credentials, ~/.password-store) are refused, and /proc and /sys are not documents. "+
			"Adding the same path (or fileName, or title and text) again replaces the earlier version (\"replaced\": true). "+
			"Returns the contentIds; everything reported is searchable at once."),
		mcp.WithTitleAnnotation("Add content"),
		mcp.WithString("storeId", mcp.Required(), mcp.Description("Store id from createStore or listStores.")),
		mcp.WithString("text", mcp.Description("The text to add (instead of path).")),
		mcp.WithString("title", mcp.Description("Title of the text; shown in search hits. Files use their name or first heading.")),
		mcp.WithString("format", mcp.Description("Format of `text`: txt (default), md, html, json, csv or code."), mcp.Enum(formatNames()...)),
		mcp.WithString("path", mcp.Description("Absolute path of a file or folder to add (instead of text); a leading ~ is the home folder.")),
		mcp.WithString("data", mcp.Description("A file's bytes, base64-encoded (instead of text or path), read as the file would be; needs fileName.")),
		mcp.WithString("fileName", mcp.Description("The name of the file whose bytes `data` holds, e.g. \"notes.md\": it decides the format, "+
			"and adding the same fileName again replaces that document.")),
		mcp.WithObject("metadata", mcp.Description("Optional key/value labels (string values, keys without dots), e.g. {\"project\": \"apollo\"}; "+
			"search can filter on them."), mcp.AdditionalProperties(scalar)),
		// Not read-only: it writes to a store (and reads any file it is given).
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	searchTool = mcp.NewTool("search",
		mcp.WithDescription("Full-text search over the stores, ranked by BM25. Returns the best chunks, each with its score, "+
			"a snippet where the matched words are wrapped in <mark>…</mark>, the document's title and contentId, the section "+
			"(headings) it is under, and its line range fromLine–toLine plus matchLines. Words are matched after stemming "+
			"(\"running\" finds \"run\") and without accents (\"zurich\" finds \"Zürich\"); code identifiers are found by their parts "+
			"(\"timeout\" finds config.settings.timeout_ms, \"parse\" finds parseConfigFile; stores made by earlier versions say in "+
			"listStores that they find identifiers only whole); put \"exact phrases\" in double quotes; +word must appear and -word must not; "+
			"otherwise any word may match and more matching words rank higher. "+
			"Follow up with readContent to read around a hit."),
		mcp.WithTitleAnnotation("Search content"),
		mcp.WithString("query", mcp.Required(), mcp.Description("Words to find, e.g. `install linux \"permission denied\"` or `+kernel +upgrade -windows`.")),
		mcp.WithString("storeId", mcp.Description("Search only this store; omit to search all stores.")),
		mcp.WithNumber("limit", mcp.Description(fmt.Sprintf("Most hits to return (default %d, at most %d).", DefaultLimit, MaxLimit)), mcp.Min(1), mcp.Max(MaxLimit)),
		mcp.WithObject("filters", mcp.Description("Exact-match filters: contentId, format (txt, md, html, json, csv, code, pdf), title, "+
			"path (a prefix, e.g. a folder), or any metadata key given to addContent. Example: {\"format\": \"md\", \"project\": \"apollo\"}."),
			mcp.AdditionalProperties(scalar)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	readContentTool = mcp.NewTool("readContent",
		mcp.WithDescription(fmt.Sprintf("Read lines of a stored document, e.g. around a search hit's fromLine–toLine. "+
			"Lines are 1-based and inclusive; at most %d lines and %s of text per call (\"more\": true means the document goes on, "+
			"and \"next\" says where to read on: a line longer than that is cut at a character, and the rest is read with fromChar). "+
			"For HTML, lines are those of the text with the tags removed.", MaxReadLines, extract.HumanBytes(MaxReadBytes))),
		mcp.WithTitleAnnotation("Read content"),
		mcp.WithString("contentId", mcp.Required(), mcp.Description("contentId from search or addContent.")),
		mcp.WithNumber("fromLine", mcp.Description("First line to read (default 1)."), mcp.Min(1)),
		mcp.WithNumber("fromChar", mcp.Description("Character of fromLine to start at (default 1), to read on in a long line as \"next\" says."), mcp.Min(1)),
		mcp.WithNumber("toLine", mcp.Description(fmt.Sprintf("Last line to read (default: fromLine + %d, or the end).", MaxReadLines-1)), mcp.Min(1)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	deleteContentTool = mcp.NewTool("deleteContent",
		mcp.WithDescription("Remove one document from its store; it is no longer found by search. Cannot be undone."),
		mcp.WithTitleAnnotation("Delete content"),
		mcp.WithString("contentId", mcp.Required(), mcp.Description("contentId from search or addContent.")),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	listContentTool = mcp.NewTool("listContent",
		mcp.WithDescription(fmt.Sprintf("List the documents of a store, newest first, a page at a time: contentId, title, source path "+
			"(none for text, and for a file added as bytes, which has its fileName instead), size in bytes, lines, chunks and when each was added; "+
			"with total (every document of the store) and, when more follow, \"more\": true and nextOffset to pass as offset. "+
			"Pages hold %d documents unless limit says otherwise (at most %d).", DefaultPageSize, MaxPageSize)),
		mcp.WithTitleAnnotation("List documents"),
		mcp.WithString("storeId", mcp.Required(), mcp.Description("Store id from createStore or listStores.")),
		mcp.WithNumber("offset", mcp.Description("How many documents to pass over (default 0): the nextOffset of the page before."), mcp.Min(0)),
		mcp.WithNumber("limit", mcp.Description(fmt.Sprintf("Most documents to list (default %d, at most %d).", DefaultPageSize, MaxPageSize)),
			mcp.Min(1), mcp.Max(MaxPageSize)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	reindexContentTool = mcp.NewTool("reindexContent",
		mcp.WithDescription("Read a document again and index it anew: from its file when it is still there (an edited file becomes "+
			"searchable as it is now), else from the text the store kept, which the result's note says (the file is gone, or the "+
			"document was text or a file's bytes). The contentId stays the same."),
		mcp.WithTitleAnnotation("Re-index a document"),
		mcp.WithString("contentId", mcp.Required(), mcp.Description("contentId from listContent, search or addContent.")),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	deleteStoreTool = mcp.NewTool("deleteStore",
		mcp.WithDescription("Delete a whole store with every document in it. Cannot be undone; ask the user first."),
		mcp.WithTitleAnnotation("Delete content store"),
		mcp.WithString("storeId", mcp.Required(), mcp.Description("Id of the store to delete.")),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
)

func formatNames() []string {
	out := make([]string, len(extract.Formats))
	for i, f := range extract.Formats {
		out[i] = string(f)
	}
	return out
}

type handlers struct{ s *Stores }

// result is a tool result: v as indented JSON text and as structuredContent.
func result(v any) *mcp.CallToolResult {
	text, err := indentJSON(v)
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("encode result: %v", err))
	}
	return mcp.NewToolResultStructured(v, text)
}

// indentJSON is v as indented JSON without HTML escaping: a model reads
// the text, and snippets must show <mark>, not \u003cmark\u003e.
func indentJSON(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func toolError(err error) *mcp.CallToolResult { return mcp.NewToolResultError(err.Error()) }

// labels reads an object of scalar values as strings.
func labels(a *builtin.Args, key string) map[string]string {
	v, ok := a.M[key]
	if !ok || v == nil {
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		a.Fail("%s must be an object of string values", key)
		return nil
	}
	out := make(map[string]string, len(obj))
	for k, val := range obj {
		switch val := val.(type) {
		case string:
			out[k] = val
		case float64:
			out[k] = strconv.FormatFloat(val, 'f', -1, 64)
		case bool:
			out[k] = strconv.FormatBool(val)
		default:
			a.Fail("%s.%s must be a string, number or boolean", key, k)
		}
	}
	return out
}

func (h handlers) createStore(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	name, desc, analyzer := a.Str("name", true, true), a.Str("description", false, false), a.Str("analyzer", false, false)
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	info, err := h.s.Create(ctx, name, desc, analyzer)
	if err != nil {
		return toolError(err), nil
	}
	return result(info), nil
}

func (h handlers) listStores(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	infos, err := h.s.List(ctx)
	if err != nil {
		return toolError(err), nil
	}
	if infos == nil {
		infos = []Info{}
	}
	return result(struct {
		Stores       []Info `json:"stores"`
		MaxFileBytes int64  `json:"maxFileBytes"`
	}{infos, h.s.MaxFileBytes()}), nil
}

func (h handlers) addContent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	in := Input{
		Text: a.Str("text", false, false), Title: a.Str("title", false, false), Format: extract.Format(a.Str("format", false, false)),
		Path: a.Str("path", false, false), Name: a.Str("fileName", false, false), Metadata: labels(a, "metadata"),
	}
	storeID := a.Str("storeId", true, true)
	switch data, hasData := a.M["data"]; {
	case hasData && data != nil:
		in.Data = fileBytes(a)
		if in.Name == "" {
			a.Fail("data needs fileName: the name of the file its bytes are, e.g. \"notes.md\"")
		}
	case in.Name != "":
		a.Fail("fileName goes with data, the file's bytes; for a file on this computer pass its path instead")
	}
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	in.Progress = progressNotifier(ctx, req)
	res, err := h.s.Add(ctx, storeID, in)
	if in.Progress != nil {
		awaitNotifications(ctx)
	}
	if err != nil {
		if res.Added > 0 {
			return mcp.NewToolResultError(fmt.Sprintf("%v\n%s", err, mustJSON(res))), nil
		}
		return toolError(err), nil
	}
	return result(res), nil
}

// fileBytes decodes the data argument (base64, padded or not); a file
// of no bytes is an empty slice, not nil, so it is told apart from none.
func fileBytes(a *builtin.Args) []byte {
	text := strings.TrimRight(a.Str("data", false, false), "=")
	b, err := base64.RawStdEncoding.DecodeString(text)
	if err != nil {
		a.Fail("data must be the file's bytes in base64: %v", err)
		return nil
	}
	if b == nil {
		b = []byte{}
	}
	return b
}

// progressNotifier sends notifications/progress for the caller's
// progressToken (nil when the caller sent none).
func progressNotifier(ctx context.Context, req mcp.CallToolRequest) func(Progress) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil
	}
	token := req.Params.Meta.ProgressToken
	last := -1
	return func(p Progress) {
		if p.Files <= last {
			return // progress must increase; and a Done adding no file would race the result
		}
		last = p.Files
		msg := fmt.Sprintf("%d of %d files: %d added (%d chunks)", p.Files, p.Total, p.Added, p.Chunks)
		switch {
		case p.Files == 0:
			msg = fmt.Sprintf("adding %d files", p.Total)
		case p.Files == p.Total && !p.Done:
			msg = fmt.Sprintf("%d of %d files read; saving them", p.Files, p.Total)
		}
		// float64, as the numbers would be after JSON: in-process clients
		// get this map as it is.
		_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
			"progressToken": token, "progress": float64(p.Files), "total": float64(p.Total), "message": msg,
		})
	}
}

// maxNotificationWait bounds awaitNotifications: a client that stopped
// reading must not hold a result back for long.
const maxNotificationWait = 2 * time.Second

// awaitNotifications waits until the session has taken every notification
// queued for it. mcp-go queues a notification on the session's channel,
// which a goroutine of the transport drains and writes, while it writes a
// tool's result directly: a result returned at once would overtake the
// progress sent just before it, and the client, its call done, would find
// the progress token unknown. There is no signal for the queue emptying,
// so it is looked at every millisecond.
func awaitNotifications(ctx context.Context) {
	sess := server.ClientSessionFromContext(ctx)
	if sess == nil {
		return
	}
	queue := sess.NotificationChannel()
	if len(queue) == 0 {
		return
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	limit := time.NewTimer(maxNotificationWait)
	defer limit.Stop()
	for len(queue) > 0 {
		select {
		case <-tick.C:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func mustJSON(v any) string {
	s, _ := indentJSON(v)
	return s
}

func (h handlers) search(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	q := Query{StoreID: a.Str("storeId", false, false), Text: a.Str("query", false, false), Limit: a.Int("limit"), Filters: labels(a, "filters")}
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	res, err := h.s.Search(ctx, q)
	if err != nil {
		return toolError(err), nil
	}
	return result(res), nil
}

func (h handlers) readContent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	r := Range{ContentID: a.Str("contentId", true, true), FromLine: a.Int("fromLine"), ToLine: a.Int("toLine"), FromChar: a.Int("fromChar")}
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	ex, err := h.s.ReadRange(ctx, r)
	if err != nil {
		return toolError(err), nil
	}
	text, err := indentJSON(ex)
	if err != nil {
		return toolError(err), nil
	}
	// The text goes once, in the content a model reads; structuredContent
	// carries the range without it (a read may be 256 KB, and a client
	// refusing messages over a size would get it twice).
	ex.Text = ""
	return mcp.NewToolResultStructured(excerptRange(ex), text), nil
}

// excerptRange is an Excerpt without its text, for structuredContent.
type excerptRange struct {
	ContentID  string    `json:"contentId"`
	StoreID    string    `json:"storeId"`
	Title      string    `json:"title"`
	Path       string    `json:"path,omitempty"`
	FromLine   int       `json:"fromLine"`
	FromChar   int       `json:"fromChar,omitempty"`
	ToLine     int       `json:"toLine"`
	TotalLines int       `json:"totalLines"`
	Text       string    `json:"-"`
	More       bool      `json:"more"`
	Next       *Position `json:"next,omitempty"`
	Note       string    `json:"note,omitempty"`
}

func (h handlers) deleteContent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	id := a.Str("contentId", true, true)
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	c, err := h.s.DeleteContent(ctx, id)
	if err != nil {
		return toolError(err), nil
	}
	return result(struct {
		Deleted Content `json:"deleted"`
	}{c}), nil
}

func (h handlers) listContent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	id, offset, limit := a.Str("storeId", true, true), a.Count("offset"), a.Count("limit")
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	page, err := h.s.Contents(ctx, id, offset, limit)
	if err != nil {
		return toolError(err), nil
	}
	return result(page), nil
}

func (h handlers) reindexContent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	id := a.Str("contentId", true, true)
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	res, err := h.s.Reindex(ctx, id)
	if err != nil {
		return toolError(err), nil
	}
	return result(res), nil
}

func (h handlers) deleteStore(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	id := a.Str("storeId", true, true)
	if a.Err != nil {
		return toolError(a.Err), nil
	}
	if err := h.s.DeleteStore(ctx, id); err != nil {
		return toolError(err), nil
	}
	return result(struct {
		Deleted string `json:"deleted"`
	}{id}), nil
}
