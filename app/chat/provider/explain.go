package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Explain says in plain words what went wrong with a provider and what to
// do about it, without the technical detail that err.Error() keeps (the
// provider's own message, the HTTP status, the dial error): the sentence a
// person reads first, with the detail behind a disclosure. It is "" for
// an error that is none of the kinds a person can act on (a cancelled
// request, an error from outside this package).
func Explain(err error) string {
	var rl *RateLimitError
	if errors.As(err, &rl) {
		what := "is rate limiting requests"
		if rl.Status != http.StatusTooManyRequests {
			what = "is overloaded"
		}
		wait := "a minute"
		if rl.RetryAfter > 0 {
			wait = rl.RetryAfter.Round(time.Second).String()
		}
		return fmt.Sprintf("The provider %q %s. Wait %s and retry, or check your plan's limits.", rl.Provider, what, wait)
	}
	var e *Error
	if !errors.As(err, &e) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ""
	}
	switch {
	case errors.Is(e.Err, ErrAuth):
		return fmt.Sprintf("The provider %q refused the API key. Check the key in Settings → Models.", e.Provider)
	case errors.Is(e.Err, ErrModelNotFound):
		return fmt.Sprintf("The provider %q has no model %q. Pick another model for this chat, or check the provider in Settings → Models.", e.Provider, e.Model)
	case errors.Is(e.Err, ErrUnreachable):
		at := ""
		var ue *url.Error
		if errors.As(e.Err, &ue) {
			if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
				at = " at " + u.Scheme + "://" + u.Host
			}
		}
		return fmt.Sprintf("The provider %q%s is not reachable. Is it running? Check its base URL in Settings → Models.", e.Provider, at)
	case errors.Is(e.Err, ErrContextLength):
		// Said of this request alone: whether the chat was summarised
		// before it is the chat's to say (app/chat's answerError).
		return fmt.Sprintf("The model %q refused the request as longer than its context window. Set the model's real context window in Settings → Chat → Long chats → Context windows (provider/model=tokens), or with switchboard chat --context-window N; or shorten the request.", e.Model)
	case errors.Is(e.Err, ErrToolCallUnreadable):
		return fmt.Sprintf("The model wrote a tool call that %q could not read; what arrived is kept. Retry (a small model garbles one now and then), or turn some tools off in the chat's Tools menu.", e.Provider)
	case errors.Is(e.Err, ErrIncomplete):
		return "The answer broke off before it was finished; what arrived is kept. Retry to ask again."
	case errors.Is(e.Err, ErrConfig):
		return fmt.Sprintf("The provider %q is not set up right. Check it in Settings → Models.", e.Provider)
	case e.Tool != "" && e.Status >= 400 && e.Status < 500:
		from := ""
		if e.ToolServer != "" {
			from = fmt.Sprintf(" of the server %q", e.ToolServer)
		}
		return fmt.Sprintf("The provider %q refused the definition of the tool %q%s, so no request with it can go through. Turn that tool off in the chat's Tools menu and send again (and tell the server's author).", e.Provider, e.Tool, from)
	case e.Status >= 500:
		return fmt.Sprintf("The provider %q had a problem on its side (HTTP %d). Retry in a moment.", e.Provider, e.Status)
	case e.Status != 0:
		return fmt.Sprintf("The provider %q refused the request (HTTP %d). Check the model and the provider's settings in Settings → Models.", e.Provider, e.Status)
	}
	return ""
}
