package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// Sentinel errors. Every error a Provider returns is an *Error or a
// *RateLimitError; errors.Is finds these through them.
var (
	// ErrConfig is a Config that cannot work (unknown kind, bad base URL).
	ErrConfig = errors.New("invalid provider settings")
	// ErrAuth is a rejected API key (HTTP 401 or 403). Never retried.
	ErrAuth = errors.New("the provider rejected the API key")
	// ErrRateLimited is a rate limit (or, for Anthropic, overload) that
	// outlasted MaxRetries waits, or asked for a wait over MaxRetryWait.
	ErrRateLimited = errors.New("the provider is rate limiting requests")
	// ErrModelNotFound is an unknown model (HTTP 404 to a chat request).
	ErrModelNotFound = errors.New("the provider does not know the model")
	// ErrIncomplete is a stream that broke off (connection lost, garbled
	// event, no end marker); the Response returned with it holds the text
	// and the complete tool calls that arrived.
	ErrIncomplete = errors.New("the answer broke off")
	// ErrUnreachable is a provider that could not be connected to.
	ErrUnreachable = errors.New("the provider cannot be reached")
	// ErrContextLength is a request the model refused as longer than its
	// context window (OpenAI's context_length_exceeded, Anthropic's
	// "prompt is too long", llama.cpp's and LM Studio's context size).
	ErrContextLength = errors.New("the request is longer than the model's context window")
	// ErrToolCallUnreadable is an answer the server broke off because it
	// could not read a tool call out of the model's text (llama.cpp's
	// "does not match the expected … format": a small model garbles one
	// now and then). It comes with ErrIncomplete.
	ErrToolCallUnreadable = errors.New("the model wrote a tool call the server could not read")
)

// Error is a failed provider operation. Message is what the provider said
// (API key redacted); Err wraps a sentinel where one applies.
type Error struct {
	Provider string // Config.Name
	Op       string // "configure", "stream", "list models"
	Status   int    // HTTP status; 0 when there was no error response
	Model    string // the requested model, for "stream"
	Message  string // the provider's own error message, if any
	// Tool is the tool whose definition the provider refused, when its
	// message names one (see refusedTool); ToolServer is its server.
	Tool, ToolServer string
	Err              error
}

func (e *Error) Error() string {
	said := ""
	if e.Status != 0 {
		said = fmt.Sprintf(" (HTTP %d", e.Status)
		if e.Message != "" {
			said += ": " + e.Message
		}
		said += ")"
	}
	switch {
	case errors.Is(e.Err, ErrAuth):
		return fmt.Sprintf("provider %q rejected the API key%s; fix the key in Settings → Models", e.Provider, said)
	case errors.Is(e.Err, ErrModelNotFound):
		return fmt.Sprintf("provider %q has no model %q%s; pick another model, or check the base URL in Settings → Models", e.Provider, e.Model, said)
	case errors.Is(e.Err, ErrIncomplete):
		return fmt.Sprintf("provider %q: %v; what arrived is kept, send again to retry", e.Provider, e.Err)
	case errors.Is(e.Err, ErrUnreachable):
		return fmt.Sprintf("provider %q: %v; check that it is running and its base URL in Settings → Models", e.Provider, e.Err)
	case errors.Is(e.Err, ErrConfig):
		return fmt.Sprintf("provider %q: %v", e.Provider, e.Err)
	case e.Status >= 500:
		return fmt.Sprintf("provider %q failed to %s%s; the provider has a problem, try again in a moment", e.Provider, e.Op, said)
	case e.Status != 0:
		return fmt.Sprintf("provider %q refused to %s%s; check the model and settings in Settings → Models", e.Provider, e.Op, said)
	default:
		return fmt.Sprintf("provider %q: %s: %v", e.Provider, e.Op, e.Err)
	}
}

func (e *Error) Unwrap() error { return e.Err }

// RateLimitError is a rate limit that outlasted our retries.
type RateLimitError struct {
	Provider string
	Status   int // 429, or 529/503 for an overloaded Anthropic
	// RetryAfter is the wait the provider last asked for; 0 if it gave none.
	RetryAfter time.Duration
	Message    string // the provider's own error message, if any
}

func (e *RateLimitError) Error() string {
	what := "is rate limiting requests"
	if e.Status != http.StatusTooManyRequests {
		what = "is overloaded"
	}
	msg := fmt.Sprintf("provider %q %s (HTTP %d", e.Provider, what, e.Status)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		return msg + fmt.Sprintf("); wait %s and try again", e.RetryAfter.Round(time.Second))
	}
	return msg + "); wait a minute and try again, or check your plan's limits"
}

func (e *RateLimitError) Unwrap() error { return ErrRateLimited }

// statusError is an HTTP error response, caught by statusMiddleware before
// the SDKs parse it: their parsers lose the status when the body is not the
// JSON they expect, which OpenAI-compatible servers often send.
type statusError struct {
	status  int
	header  http.Header
	message string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
}

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// statusMiddleware turns responses with status >= 400 into *statusError. It
// has the signature of both SDKs' option.Middleware.
func statusMiddleware(apiKey string) func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	return func(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
		res, err := next(req)
		if err != nil || res.StatusCode < 400 {
			return res, err
		}
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		_ = res.Body.Close()
		return nil, &statusError{status: res.StatusCode, header: res.Header, message: errorMessage(body, res.StatusCode, apiKey)}
	}
}

// errorMessage finds the human part of an error body: {"error":{"message"}}
// (OpenAI, Anthropic), {"error":"..."} (Ollama), {"message"} or {"detail"}
// (vLLM and others), else the text itself. The key is redacted, in case a
// proxy echoes the request.
func errorMessage(body []byte, status int, apiKey string) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			msg = inner.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			msg = s
		case v.Message != "":
			msg = v.Message
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			msg = s
		case len(v.Detail) > 0:
			msg = string(v.Detail)
		}
	} else if t := strings.TrimSpace(string(body)); t != "" && !strings.HasPrefix(t, "<") {
		msg = t
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if len(apiKey) >= 4 {
		msg = strings.ReplaceAll(msg, apiKey, "[REDACTED]")
	}
	return plain.Clip(msg, 300)
}

// classify turns an SDK or transport error into an *Error or
// *RateLimitError for the user.
func classify(ctx context.Context, name, op, model string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return &Error{Provider: name, Op: op, Model: model, Err: ctx.Err()}
	}
	var se *statusError
	if errors.As(err, &se) {
		e := &Error{Provider: name, Op: op, Status: se.status, Model: model, Message: se.message}
		switch {
		case se.status == http.StatusUnauthorized || se.status == http.StatusForbidden:
			e.Err = ErrAuth
		case se.status == http.StatusNotFound && op == opStream:
			e.Err = ErrModelNotFound
		case se.status == http.StatusTooManyRequests:
			return rateLimit(name, se)
		case op == opStream && (se.status == http.StatusBadRequest || se.status == http.StatusRequestEntityTooLarge) && tooLong(se.message):
			e.Err = fmt.Errorf("%w: %s", ErrContextLength, se.message)
		default:
			e.Err = errors.New(se.message)
		}
		return e
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return &Error{Provider: name, Op: op, Model: model, Err: fmt.Errorf("%w: %w", ErrUnreachable, err)}
	}
	return &Error{Provider: name, Op: op, Model: model, Err: err}
}

// tooLong says whether an error message is a provider's way of saying the
// request is over the model's context window.
func tooLong(msg string) bool {
	m := strings.ToLower(msg)
	for _, k := range []string{"context_length_exceeded", "maximum context length", "context length", "context window",
		"prompt is too long", "exceeds the available context size", "exceed context window", "too many tokens", "input is too long", "num_ctx"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

func rateLimit(name string, se *statusError) *RateLimitError {
	after, _ := retryAfter(se.header, time.Now())
	return &RateLimitError{Provider: name, Status: se.status, RetryAfter: after, Message: se.message}
}

// incomplete reports a stream that broke off because of cause.
func incomplete(ctx context.Context, name, model string, cause error) error {
	if ctx.Err() != nil {
		return &Error{Provider: name, Op: opStream, Model: model, Err: ctx.Err()}
	}
	if strings.Contains(cause.Error(), "does not match the expected") {
		cause = fmt.Errorf("%w: %w", ErrToolCallUnreadable, cause)
	}
	return &Error{Provider: name, Op: opStream, Model: model, Err: fmt.Errorf("%w: %w", ErrIncomplete, cause)}
}

// errNoEnd is the cause of ErrIncomplete when the stream ended cleanly but
// without its end marker.
var errNoEnd = errors.New("the stream ended without an end marker")

// Operations, as Error.Op.
const (
	opStream = "stream"
	opModels = "list models"
)
