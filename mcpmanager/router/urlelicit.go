package router

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// URLElicitor asks the user to open a URL a server needs them to visit
// (URL-mode elicitation). The manager's RequestHandler is one.
type URLElicitor interface {
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// RetryMeta is the _meta key set on an elicitation that stands for a tool
// call failing with -32042 (URL elicitation required): the card waits for
// the server's notifications/elicitation/complete or for the user's Done,
// and then the call is retried. Without it, a URL elicitation is answered
// as soon as the user opened the URL (or declined).
const RetryMeta = "io.switchboard/retriesCall"

// URLRetries bounds how many times one call is retried after URL
// elicitations, so a server that keeps answering -32042 cannot loop.
var URLRetries = 3

// ErrURLDeclined means the user declined (or cancelled) opening the URL a
// server needed before it would run the tool.
var ErrURLDeclined = errors.New("the user did not open the URL the server asked for")

// SetURLElicitor makes Call handle -32042: e is asked to show each URL,
// and the call is retried once the server said the elicitation completed
// or the user said they were done. nil (the default) returns the error.
func (r *Router) SetURLElicitor(e URLElicitor) {
	r.urls.mu.Lock()
	defer r.urls.mu.Unlock()
	r.urls.elicitor = e
}

// urlWaits tracks the URL elicitations calls wait on.
type urlWaits struct {
	mu       sync.Mutex
	elicitor URLElicitor
	waiting  map[urlKey]chan struct{}
}

type urlKey struct{ server, id string }

// complete closes the wait of (server, id), from the server's
// notifications/elicitation/complete.
func (u *urlWaits) complete(server string, n mcp.JSONRPCNotification) {
	id, _ := n.Params.AdditionalFields["elicitationId"].(string)
	u.mu.Lock()
	defer u.mu.Unlock()
	if ch, ok := u.waiting[urlKey{server, id}]; ok {
		close(ch)
		delete(u.waiting, urlKey{server, id})
	}
}

// wait registers (server, id) and returns its channel and a release.
func (u *urlWaits) wait(server, id string) (<-chan struct{}, func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.waiting == nil {
		u.waiting = map[urlKey]chan struct{}{}
	}
	k := urlKey{server, id}
	ch, ok := u.waiting[k]
	if !ok {
		ch = make(chan struct{})
		u.waiting[k] = ch
	}
	return ch, func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		if u.waiting[k] == ch {
			delete(u.waiting, k)
		}
	}
}

// retryURL runs call; while it fails with -32042 and an elicitor is set,
// each elicitation the error carries is put to the user, and the call runs
// again once every one of them completed.
func (r *Router) retryURL(ctx context.Context, server string, call func() error) error {
	for attempt := 0; ; attempt++ {
		err := call()
		var need mcp.URLElicitationRequiredError
		if err == nil || !errors.As(err, &need) {
			return err
		}
		r.urls.mu.Lock()
		e := r.urls.elicitor
		r.urls.mu.Unlock()
		if e == nil || attempt >= URLRetries || len(need.Elicitations) == 0 {
			return err
		}
		if err := r.awaitURLs(ctx, e, server, need.Elicitations); err != nil {
			return fmt.Errorf("%s: %w", server, err)
		}
	}
}

// awaitURLs shows each URL and waits until the server completed it or the
// user pressed Done. Every wait is registered before the first card shows,
// so a completion that comes early is not missed.
func (r *Router) awaitURLs(ctx context.Context, e URLElicitor, server string, els []mcp.ElicitationParams) error {
	done := make([]<-chan struct{}, len(els))
	for i, p := range els {
		ch, release := r.urls.wait(server, p.ElicitationID)
		defer release()
		done[i] = ch
	}
	for i, p := range els {
		p.Mode = mcp.ElicitationModeURL
		if p.Meta == nil {
			p.Meta = &mcp.Meta{}
		}
		if p.Meta.AdditionalFields == nil {
			p.Meta.AdditionalFields = map[string]any{}
		}
		p.Meta.AdditionalFields[RetryMeta] = true
		actx, cancel := context.WithCancel(ctx)
		// The server's completion withdraws the card.
		go func() {
			select {
			case <-done[i]:
				cancel()
			case <-actx.Done():
			}
		}()
		req := mcp.ElicitationRequest{Params: p}
		req.Method = string(mcp.MethodElicitationCreate)
		res, err := e.Elicit(actx, server, req)
		completed := isClosed(done[i])
		cancel()
		switch {
		case completed:
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return fmt.Errorf("ask the user to open %s: %w", p.URL, err)
		case res == nil || res.Action != mcp.ElicitationResponseActionAccept:
			return fmt.Errorf("%w (%s)", ErrURLDeclined, p.URL)
		}
	}
	return nil
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
