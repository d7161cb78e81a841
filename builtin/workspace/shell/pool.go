package shell

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// MaxSessions bounds how many sessions a Pool holds, so a model cannot
// start shells without end.
var MaxSessions = 16

// DefaultSession is the session used when none is named.
const DefaultSession = "default"

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Pool holds named sessions that share Options, created on first use.
// Its methods are safe for concurrent use.
type Pool struct {
	opts Options

	mu       sync.Mutex
	sessions map[string]*Session
	closed   bool
}

// NewPool returns an empty pool; sessions start when first asked for.
func NewPool(opts Options) *Pool {
	return &Pool{opts: opts, sessions: make(map[string]*Session)}
}

// Session returns the session called name ("" means DefaultSession),
// starting it if it does not exist yet.
func (p *Pool) Session(name string) (*Session, error) {
	if name == "" {
		name = DefaultSession
	}
	if !validName.MatchString(name) {
		return nil, fmt.Errorf("%w %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", ErrBadName, name)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("shell session %q: %w", name, ErrClosed)
	}
	if s, ok := p.sessions[name]; ok {
		return s, nil
	}
	if len(p.sessions) >= MaxSessions {
		return nil, fmt.Errorf("%w: %d are open (%s); reuse one of them", ErrTooManySessions, len(p.sessions), strings.Join(p.namesLocked(), ", "))
	}
	s, err := Start(name, p.opts)
	if err != nil {
		return nil, err
	}
	p.sessions[name] = s
	return s, nil
}

func (p *Pool) namesLocked() []string {
	names := make([]string, 0, len(p.sessions))
	for n := range p.sessions {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Sessions describes the sessions, sorted by name.
func (p *Pool) Sessions() []Info {
	p.mu.Lock()
	list := make([]*Session, 0, len(p.sessions))
	for _, n := range p.namesLocked() {
		list = append(list, p.sessions[n])
	}
	p.mu.Unlock()
	out := make([]Info, len(list))
	for i, s := range list {
		out[i] = s.Info()
	}
	return out
}

// Close closes every session at once (see Session.Close) and waits for
// them or ctx. Sessions cannot be created afterwards.
func (p *Pool) Close(ctx context.Context) error {
	p.mu.Lock()
	p.closed = true
	list := make([]*Session, 0, len(p.sessions))
	for _, s := range p.sessions {
		list = append(list, s)
	}
	p.mu.Unlock()
	errs := make([]error, len(list))
	var wg sync.WaitGroup
	for i, s := range list {
		wg.Go(func() { errs[i] = s.Close(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}
