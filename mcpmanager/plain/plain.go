// Package plain says errors in plain words: what happened and what to do,
// in one sentence, with the technical text kept apart for whoever wants it
// (the window shows it behind a disclosure, the CLI on the lines after the
// sentence). It is the one place both front doors turn an error into what
// a person reads.
//
// An error type that knows its sentence says it (Explainer: a missing
// launcher, an unreachable registry); network errors from anywhere are
// recognised by their type; anything else keeps its own text, whose first
// line is taken as the sentence.
//
//	sentence, detail := plain.Explain(err)
//	fmt.Fprintln(os.Stderr, plain.Text(err)) // the sentence, then the detail
//
// It also quotes text from elsewhere for a person: Clip and FirstLine in
// messages, and Show for what a person approves (a tool call's arguments
// in the terminal's question and in serve's question to its client, by
// the rules the window's approval card follows too), where every invisible
// or reordering character is written out and a long text keeps its tail in
// sight.
package plain

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// Explainer is an error that can say itself in plain words: Plain returns
// the sentence (what happened and what to do) and the technical detail
// ("" when there is none beyond the sentence).
type Explainer interface {
	error
	Plain() (sentence, detail string)
}

// Explain returns err's sentence and its technical detail. The detail is
// "" when the sentence says everything.
func Explain(err error) (sentence, detail string) {
	if err == nil {
		return "", ""
	}
	full := err.Error()
	if e, ok := errors.AsType[Explainer](err); ok {
		s, d := e.Plain()
		if outer := strings.TrimSuffix(full, e.Error()); outer != full {
			// Wrapped with context ("weather: …", naming the server): keep it.
			s = outer + s
		}
		return s, d
	}
	if s := network(err); s != "" {
		return s, full
	}
	first, rest, _ := strings.Cut(full, "\n")
	return first, strings.TrimSpace(rest)
}

// Text is the sentence, then the detail on the lines after it: the form an
// error takes across the window's bindings (the first line is shown, the
// rest behind a disclosure) and on the CLI's stderr.
func Text(err error) string {
	s, d := Explain(err)
	if d == "" || d == s {
		return s
	}
	return s + "\n" + d
}

// network says a network failure in words: which address, and what to try.
func network(err error) string {
	cause, advice := failure(err)
	if cause == "" {
		return ""
	}
	return cause + ": " + advice
}

// Cause says a network failure in a few words, without advice: which
// address and what went wrong ("huggingface.co cannot be found"), for a
// sentence that names what failed and whose screen offers what to do
// beside it. "" when err is not a network failure.
func Cause(err error) string {
	cause, _ := failure(err)
	return cause
}

// failure is a network failure's cause and what to try; "" when err is
// not one.
func failure(err error) (cause, advice string) {
	host := ""
	if ue, ok := errors.AsType[*url.Error](err); ok {
		if u, perr := url.Parse(ue.URL); perr == nil {
			host = u.Host
		}
	}
	where := "The address"
	if host != "" {
		where = host
	}
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return where + " cannot be found", "you may be offline, or the address is misspelt; check your connection and the address, then try again."
	case errors.As(err, &dns):
		return where + " cannot be looked up (DNS failed)", "check your internet connection, then try again."
	case errors.Is(err, syscall.ECONNREFUSED):
		return where + " refused the connection", "nothing is listening there. Check the address, or start the service, then try again."
	case host != "" && (isTimeout(err) || errors.Is(err, context.DeadlineExceeded)) ||
		isTimeout(err) && !errors.Is(err, context.DeadlineExceeded):
		// A request's or a connection's: a context's deadline of anything
		// else (a local server's start) is not a network failure.
		return where + " did not answer in time", "check your connection, then try again."
	case errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH):
		return where + " cannot be reached", "you seem to be offline. Check your connection, then try again."
	}
	return "", ""
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
