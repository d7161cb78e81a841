package router

import (
	"fmt"
	"reflect"
	"time"
)

// How long after a failed list the router's subscribers are told to list
// again (see relistLater); variables so tests can shorten them.
var (
	// RelistWait is the wait after a list's first failure; it doubles at
	// each failure in a row.
	RelistWait = time.Second
	// RelistMaxWait caps it: a server whose list keeps failing is asked
	// again this often, while anyone lists.
	RelistMaxWait = time.Minute
)

// relist is one list's failures in a row (relists, by relistKey).
type relist struct {
	wait    time.Duration // before the next signal
	pending bool          // a signal is on its way
}

// relistKey names one list (tools, resources or prompts) of server.
func relistKey[T any](server string) string {
	return fmt.Sprintf("%s\x00%s", server, reflect.TypeFor[T]())
}

// relistLater signals the subscribers (as a change does) a while after a
// list of server's failed, RelistWait and then twice as long at each
// failure in a row, up to RelistMaxWait. A failed list is not cached, so
// the next listing asks the server again; but nothing else would make a
// listener (the gateway behind 'serve') list again: a server that never
// changes, such as a built-in whose list timed out under load, stayed out
// of its tools until another server changed. A signal that finds the
// server removed is not sent, and its record goes; one made needless by
// a change meanwhile costs a listing from the cache, as any signal may
// (see Subscribe).
// A function, not a method: the Router has methods enough.
func relistLater(r *Router, key, server string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.relists == nil {
		r.relists = map[string]*relist{}
	}
	rl := r.relists[key]
	if rl == nil {
		rl = &relist{wait: RelistWait}
		r.relists[key] = rl
	}
	if rl.pending {
		return
	}
	rl.pending = true
	wait := rl.wait
	rl.wait = min(2*rl.wait, RelistMaxWait)
	time.AfterFunc(wait, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		rl.pending = false
		if _, ok := r.sources[server]; !ok {
			delete(r.relists, key) // removed meanwhile: its failures go with it
			return
		}
		r.changedLocked()
	})
}

// relisted forgets a list's failures once it has come.
func relisted(r *Router, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.relists, key)
}

// listFailed is what a failed fetch of one of server's lists on session
// cl gives its callers, with the signal to list again (relistLater): the
// list this session gave before, when the failed fetch was asking again
// only because that list's ttlMs ran out (a 2026-07-28 server that
// announces no changes, such as the built-ins, goes stale every
// ZeroTTLRefresh, and each listing after that asks it again: under load,
// one such fetch failing would drop both built-ins' tools from 'serve'
// at once, and for good, as they never change); else the error. A list
// the server said changed, or a new session's, is not kept, so its
// failure is the error.
func listFailed[T any](r *Router, server string, cl Client, slot func(*cached) (*[]T, *time.Time), err error) (any, error) {
	relistLater(r, relistKey[T](server), server)
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.cache[server]; c.client == cl {
		if got, _ := slot(&c); *got != nil {
			return *got, nil
		}
	}
	return nil, redactErr(r.redact, err)
}
