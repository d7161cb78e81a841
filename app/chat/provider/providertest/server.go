// Package providertest is a fake model provider for tests: an HTTP server
// on 127.0.0.1 speaking the real wire formats — OpenAI chat completions and
// the Anthropic Messages API, both with SSE streaming, and Ollama's native
// /api/chat, streamed as newline-delimited JSON; their model lists
// (Ollama's /api/tags) — answering with scripted replies.
//
// Replies are queued and used up one per chat request, in order; a reply
// with When is a rule instead, answering every request whose last user-side
// message contains it (for UI tests, where the number of requests is not
// known). With nothing scripted the server answers 500 "no scripted reply".
//
//	s := providertest.NewServer(t) // closed by t.Cleanup
//	s.Enqueue(
//		providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "files__read", Arguments: `{"path":"a.md"}`}}},
//		providertest.Reply{Text: "It says hello."},
//	)
//	p, _ := provider.New(provider.Config{Kind: provider.KindOpenAI, BaseURL: s.URL(provider.KindOpenAI)})
//	...
//	bodies := s.Requests() // what the SDK sent, to assert on
//
// This file and the wire format do not import "testing", so
// testdata/fakellm can run the same server as a program; it takes scripts
// over HTTP (POST /__fake/enqueue, POST /__fake/reset, GET /__fake/requests).
package providertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// Call is one request the server received.
type Call struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Header http.Header     `json:"header"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// Model is one entry of the model lists.
type Model struct {
	ID            string `json:"id"`
	DisplayName   string `json:"displayName,omitempty"`
	ContextWindow int    `json:"contextWindow,omitempty"`
}

// Server is the fake provider. Its methods are safe for concurrent use.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{} // closed by Close; ends streams that are waiting
	once sync.Once

	mu     sync.Mutex
	queue  []Reply
	rules  []Reply
	models []Model
	calls  []Call
	key    string
	seq    int
	cached map[string]bool // Anthropic prompt-cache prefixes seen, by model
	// noCount makes /v1/messages/count_tokens refuse, as a proxy without
	// it or a key without the permission does.
	noCount bool
}

// New starts a server on addr ("" means 127.0.0.1:0). Close stops it.
func New(addr string) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("providertest: listen on %s: %w", addr, err)
	}
	s := &Server{ln: ln, done: make(chan struct{}), models: []Model{{ID: "fake-model"}}, cached: map[string]bool{}}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server and ends the streams in flight.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.done)
		err = s.srv.Close()
	})
	return err
}

// BaseURL is the server's root, http://127.0.0.1:PORT.
func (s *Server) BaseURL() string { return "http://" + s.ln.Addr().String() }

// URL is the base URL a provider of kind is configured with: root/v1 for
// OpenAI, the root for Anthropic and Ollama.
func (s *Server) URL(kind provider.Kind) string {
	if kind == provider.KindOpenAI {
		return s.BaseURL() + "/v1"
	}
	return s.BaseURL()
}

// Enqueue adds replies: rules (When set) to the rules, the others to the
// queue.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range replies {
		if r.When != "" {
			s.rules = append(s.rules, r)
		} else {
			s.queue = append(s.queue, r)
		}
	}
}

// Reset forgets replies, rules and recorded requests, and restores the
// default model list and key check.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue, s.rules, s.calls, s.key = nil, nil, nil, ""
	s.cached = map[string]bool{}
	s.models = []Model{{ID: "fake-model"}}
	s.noCount = false
}

// RefuseCountTokens makes Anthropic's /v1/messages/count_tokens answer
// 404 not_found_error (on), as a proxy without the endpoint does.
func (s *Server) RefuseCountTokens(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noCount = on
}

// Requests returns the bodies of the chat requests received (OpenAI chat
// completions, Anthropic messages and Ollama chats), oldest first.
func (s *Server) Requests() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, c := range s.calls {
		if c.Method == http.MethodPost && chatPath(c.Path) != "" {
			out = append(out, c.Body)
		}
	}
	return out
}

// Calls returns every API request received (not the /__fake ones), with
// headers, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// SetModels sets the model list all three list endpoints return.
func (s *Server) SetModels(ids []string) {
	ms := make([]Model, len(ids))
	for i, id := range ids {
		ms[i] = Model{ID: id}
	}
	s.SetModelList(ms)
}

// SetModelList is SetModels with display names and context windows.
func (s *Server) SetModelList(ms []Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]Model(nil), ms...)
}

// RequireKey makes every API request without this key (as a Bearer token
// or x-api-key) fail with 401, as a real provider does; "" turns it off.
func (s *Server) RequireKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
}

// ServeHTTP routes a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/__fake/") {
		s.serveControl(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	call := Call{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	if len(body) > 0 {
		if json.Valid(body) {
			call.Body = body
		} else {
			call.Body, _ = json.Marshal(string(body))
		}
	}
	s.mu.Lock()
	s.calls = append(s.calls, call)
	key := s.key
	s.mu.Unlock()

	api := apiOf(r)
	if key != "" && r.Header.Get("x-api-key") != key && r.Header.Get("Authorization") != "Bearer "+key {
		writeError(w, api, http.StatusUnauthorized, "", "")
		return
	}
	switch {
	case r.Method == http.MethodPost && chatPath(r.URL.Path) != "":
		s.serveChat(w, r, chatPath(r.URL.Path), body)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.serveCount(w, body)
	case r.Method == http.MethodGet && (r.URL.Path == "/v1/models" || r.URL.Path == "/models"):
		s.serveModels(w)
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		s.serveTags(w)
	case r.Method == http.MethodPost && r.URL.Path == "/api/show":
		s.serveShow(w, body)
	case r.Method == http.MethodGet && r.URL.Path == "/api/version":
		writeJSON(w, http.StatusOK, map[string]string{"version": "0.0.0-providertest"})
	case r.Method == http.MethodGet && r.URL.Path == "/":
		_, _ = io.WriteString(w, "Ollama is running")
	default:
		writeError(w, api, http.StatusNotFound, fmt.Sprintf("providertest: no route for %s %s", r.Method, r.URL.Path), "")
	}
}

// Wire formats.
const (
	apiOpenAI    = "openai"
	apiAnthropic = "anthropic"
	apiOllama    = "ollama"
)

func chatPath(path string) string {
	switch path {
	case "/v1/chat/completions", "/chat/completions":
		return apiOpenAI
	case "/v1/messages":
		return apiAnthropic
	case "/api/chat":
		return apiOllama
	}
	return ""
}

// apiOf guesses which format an error should be in.
func apiOf(r *http.Request) string {
	if chatPath(r.URL.Path) == apiAnthropic || r.Header.Get("anthropic-version") != "" {
		return apiAnthropic
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		return apiOllama
	}
	return apiOpenAI
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, api string, body []byte) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, api, http.StatusBadRequest, "providertest: the body is not JSON: "+err.Error(), "")
		return
	}
	if api == apiOllama {
		// Ollama cuts a prompt longer than the context it runs it in,
		// silently; the fake refuses it, so a client that does not size
		// num_ctx is caught.
		ctx := req.Options.NumCtx
		if ctx <= 0 {
			ctx = OllamaDefaultCtx
		}
		if need := req.promptTokens(); need > ctx {
			writeError(w, api, http.StatusBadRequest, fmt.Sprintf("providertest: the prompt (about %d tokens) does not fit num_ctx %d: Ollama would cut it", need, ctx), req.Model)
			return
		}
	}
	if api == apiAnthropic {
		if msg := req.badPropertyKey(); msg != "" {
			writeError(w, api, http.StatusBadRequest, msg, req.Model)
			return
		}
	}
	// A model with a context window refuses a longer request, as the real
	// APIs do (counted as Usage counts input: a quarter of the body).
	if window := s.window(req.Model); window > 0 && len(body)/4 > window {
		writeContextError(w, api, len(body)/4, window)
		return
	}
	last := req.lastUserText(api)
	s.mu.Lock()
	reply, ok := Reply{}, false
	for _, rule := range s.rules {
		if strings.Contains(last, rule.When) {
			reply, ok = rule, true
			break
		}
	}
	if !ok && len(s.queue) > 0 {
		reply, ok = s.queue[0], true
		s.queue = s.queue[1:]
	}
	s.seq++
	seq := s.seq
	var cacheRead, cacheCreation int
	if prefix := req.cachePrefix(); api == apiAnthropic && prefix != "" {
		// The API reads a prefix it holds and writes one it does not.
		k := req.Model + "\x00" + prefix
		if s.cached[k] {
			cacheRead = len(prefix) / 4
		} else {
			cacheCreation = len(prefix) / 4
		}
		s.cached[k] = true
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, api, http.StatusInternalServerError, "providertest: no scripted reply for this request; call Enqueue (or POST /__fake/enqueue) first", "")
		return
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		if reply.RetryAfterMs != "" {
			w.Header().Set("retry-after-ms", reply.RetryAfterMs)
		}
		writeError(w, api, reply.Status, reply.Error, req.Model)
		return
	}
	a := answer{Reply: reply, api: api, model: req.Model, seq: seq, bodySize: len(body), done: s.done, cacheRead: cacheRead, cacheCreation: cacheCreation}
	if !req.streams(api) {
		a.writeWhole(w)
		return
	}
	a.stream(r.Context(), w, api == apiOpenAI && req.StreamOptions.IncludeUsage)
}

// serveCount is Anthropic's /v1/messages/count_tokens: model and
// messages required, the Messages API's other parameters (max_tokens,
// stream, temperature) refused as extra inputs, as the real endpoint
// does; {"input_tokens": N}, N counted as the chat's usage is (a quarter
// of the body: the count of a chat request is its usage less the few
// tokens of max_tokens and stream).
func (s *Server) serveCount(w http.ResponseWriter, body []byte) {
	s.mu.Lock()
	refuse := s.noCount
	s.mu.Unlock()
	if refuse {
		writeJSON(w, http.StatusNotFound, map[string]any{"type": "error", "error": map[string]any{"type": "not_found_error", "message": "Not found"}})
		return
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, apiAnthropic, http.StatusBadRequest, "providertest: the body is not JSON: "+err.Error(), "")
		return
	}
	for _, k := range []string{"model", "messages"} {
		if _, ok := req[k]; !ok {
			writeError(w, apiAnthropic, http.StatusBadRequest, k+": Field required", "")
			return
		}
	}
	for _, k := range []string{"max_tokens", "stream", "temperature", "top_p", "stop_sequences", "metadata"} {
		if _, ok := req[k]; ok {
			writeError(w, apiAnthropic, http.StatusBadRequest, k+": Extra inputs are not permitted", "")
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]int{"input_tokens": len(body) / 4})
}

func (s *Server) serveModels(w http.ResponseWriter) {
	s.mu.Lock()
	ms := append([]Model(nil), s.models...)
	s.mu.Unlock()
	// One shape both SDKs parse: OpenAI's list (object, data[].created,
	// owned_by) and Anthropic's page (has_more, first_id, last_id,
	// data[].display_name, created_at), plus the context_length OpenRouter
	// adds.
	data := make([]map[string]any, 0, len(ms))
	for _, m := range ms {
		name := m.DisplayName
		if name == "" {
			name = m.ID
		}
		e := map[string]any{
			"id": m.ID, "object": "model", "created": 1700000000, "owned_by": "providertest",
			"type": "model", "display_name": name, "created_at": "2024-01-01T00:00:00Z",
		}
		if m.ContextWindow > 0 {
			e["max_input_tokens"] = m.ContextWindow
			e["context_length"] = m.ContextWindow
		}
		data = append(data, e)
	}
	page := map[string]any{"object": "list", "data": data, "has_more": false, "first_id": nil, "last_id": nil}
	if len(ms) > 0 {
		page["first_id"], page["last_id"] = ms[0].ID, ms[len(ms)-1].ID
	}
	writeJSON(w, http.StatusOK, page)
}

func (s *Server) serveTags(w http.ResponseWriter) {
	s.mu.Lock()
	ms := append([]Model(nil), s.models...)
	s.mu.Unlock()
	list := make([]map[string]any, 0, len(ms))
	for _, m := range ms {
		list = append(list, map[string]any{
			"name": m.ID, "model": m.ID, "modified_at": "2024-01-01T00:00:00Z", "size": 1 << 30,
			"digest":  strings.Repeat("0", 64),
			"details": map[string]any{"format": "gguf", "family": "fake", "parameter_size": "1B", "quantization_level": "Q4_0"},
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": list})
}

// serveShow is Ollama's POST /api/show: a model's details, with its
// context length in model_info when the model has a ContextWindow.
func (s *Server) serveShow(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	_ = json.Unmarshal(body, &req)
	name := req.Model
	if name == "" {
		name = req.Name
	}
	s.mu.Lock()
	var found *Model
	for _, m := range s.models {
		if m.ID == name {
			found = &m
			break
		}
	}
	s.mu.Unlock()
	if found == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
		return
	}
	info := map[string]any{"general.architecture": "fake"}
	if found.ContextWindow > 0 {
		info["fake.context_length"] = found.ContextWindow
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"details":    map[string]any{"format": "gguf", "family": "fake", "parameter_size": "1B", "quantization_level": "Q4_0"},
		"model_info": info,
	})
}

// serveControl is the scripting API of a server run as a program.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/__fake/enqueue":
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var replies []Reply
		if err := json.Unmarshal(body, &replies); err != nil {
			var one Reply
			if err1 := json.Unmarshal(body, &one); err1 != nil {
				http.Error(w, "want a JSON array of replies (or one reply): "+err.Error(), http.StatusBadRequest)
				return
			}
			replies = []Reply{one}
		}
		s.Enqueue(replies...)
		writeJSON(w, http.StatusOK, map[string]int{"enqueued": len(replies)})
	case r.Method == http.MethodPost && r.URL.Path == "/__fake/reset":
		s.Reset()
		writeJSON(w, http.StatusOK, map[string]bool{"reset": true})
	case r.Method == http.MethodGet && r.URL.Path == "/__fake/requests":
		calls := s.Calls()
		if calls == nil {
			calls = []Call{}
		}
		writeJSON(w, http.StatusOK, calls)
	case r.Method == http.MethodPost && r.URL.Path == "/__fake/models":
		var ms []Model
		if err := json.NewDecoder(r.Body).Decode(&ms); err != nil {
			http.Error(w, "want a JSON array of {id, displayName, contextWindow}: "+err.Error(), http.StatusBadRequest)
			return
		}
		s.SetModelList(ms)
		writeJSON(w, http.StatusOK, map[string]int{"models": len(ms)})
	default:
		http.Error(w, "providertest: unknown control "+r.Method+" "+r.URL.Path+"; use POST /__fake/enqueue, POST /__fake/reset, GET /__fake/requests or POST /__fake/models", http.StatusNotFound)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers in the API's error format, with a real provider's
// message for the status when msg is empty.
func writeError(w http.ResponseWriter, api string, status int, msg, model string) {
	typ, code := "api_error", ""
	switch status {
	case http.StatusBadRequest:
		typ = "invalid_request_error"
	case http.StatusUnauthorized:
		typ, code = "authentication_error", "invalid_api_key"
		if msg == "" {
			msg = "Incorrect API key provided"
		}
	case http.StatusForbidden:
		typ = "permission_error"
	case http.StatusNotFound:
		typ, code = "not_found_error", "model_not_found"
		if msg == "" {
			msg = fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)
		}
	case http.StatusTooManyRequests:
		typ, code = "rate_limit_error", "rate_limit_exceeded"
		if msg == "" {
			msg = "Rate limit reached for requests"
		}
	case 529:
		typ = "overloaded_error"
		if msg == "" {
			msg = "Overloaded"
		}
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	if api == apiOllama {
		writeJSON(w, status, map[string]string{"error": msg}) // Ollama's shape
		return
	}
	if api == apiAnthropic {
		writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
		return
	}
	if typ == "authentication_error" {
		typ = "invalid_request_error" // what OpenAI says
	}
	var c any
	if code != "" {
		c = code
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": c}})
}

// window is the context window of the model named id, 0 when not known.
func (s *Server) window(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if m.ID == id {
			return m.ContextWindow
		}
	}
	return 0
}

// writeContextError refuses a request of tokens over window, in the
// API's words: OpenAI's context_length_exceeded, Anthropic's "prompt is
// too long", Ollama's (llama.cpp's) context size.
func writeContextError(w http.ResponseWriter, api string, tokens, window int) {
	switch api {
	case apiAnthropic:
		writeJSON(w, http.StatusBadRequest, map[string]any{"type": "error", "error": map[string]any{
			"type": "invalid_request_error", "message": fmt.Sprintf("prompt is too long: %d tokens > %d maximum", tokens, window)}})
	case apiOllama:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("the request exceeds the available context size (%d tokens), try increasing it", window)})
	default:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, tokens),
			"type":    "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
	}
}

// errAborted ends a handler that was waiting when the client or the server
// went away.
var errAborted = errors.New("providertest: stream aborted")

// pause waits d, or returns errAborted if ctx or the server ends first.
func pause(ctx context.Context, done <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return errAborted
	case <-done:
		return errAborted
	}
}
