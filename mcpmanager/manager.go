package mcpmanager

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
	"github.com/switchboard-app/switchboard/mcpmanager/filename"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Sentinel errors.
var (
	// ErrUnknownServer: no server has that name.
	ErrUnknownServer = errors.New("no server with that name")
	// ErrBuiltinTest: Test was given a built-in, which would start a second
	// copy beside the one serving its tools (on the same store, say).
	ErrBuiltinTest = errors.New("built-in servers run inside Switchboard and need no test")
)

// ServerConfig is what the manager needs to know of one configured server.
type ServerConfig struct {
	Name         string
	Command      string
	Args         []string
	Env          map[string]string
	Dir          string
	Disabled     bool
	StartTimeout time.Duration // the handshake's limit; 0: supervisor default
	// FetchTimeout limits the download of an npx, uvx or docker server's
	// package before its start (0: fetch.Timeout). A change alone does not
	// restart a running server.
	FetchTimeout time.Duration
	CallTimeout  time.Duration // 0: router default
	Restart      supervisor.Restart
	// Remote, when set, makes this an HTTP server (Command is unused).
	Remote *supervisor.Remote
	// Builtin, when set, runs the server inside this process (Command and
	// Remote are unused). Only a Builtin may take a reserved name.
	Builtin *Builtin
	// StartError, when set, is shown as the server's error instead of running it
	// (a transport this build lacks, a secret that cannot be resolved).
	StartError string
	// Roots are the absolute folders offered as the server's MCP roots.
	// A change of Roots alone does not restart a server: Apply sends it
	// notifications/roots/list_changed instead — except for a sandboxed
	// server, whose roots are bound into its sandbox at start: it restarts.
	Roots []string
	// Sandbox, when set, runs a stdio server in a sandbox (package
	// sandbox); Roots are filled in at each start.
	Sandbox *sandbox.Policy
	// IncludeTools, when not empty, are the only tools of the server the
	// router offers; ExcludeTools it never offers (they win). A change
	// restarts the server, as any other.
	IncludeTools, ExcludeTools []string
	// ListingKey identifies the entry the server came from (Specs sets
	// it): the key of the tools it listed when it last ran, offered while
	// it starts (listings.go). "" keeps none.
	ListingKey string
}

// Builtin is a server that runs inside this process (a built-in: the
// content store, the workspace), connected through mcp-go's in-process
// transport by the supervisor like any other server.
type Builtin struct {
	// Key identifies what Start builds (its root directory, say): Apply
	// restarts the server when Key changes and leaves it running otherwise.
	Key string
	// Start builds the server; it is called at every (re)start. release
	// frees what the server holds and is called once its session has ended,
	// before the next Start; it may be nil.
	Start func() (srv *server.MCPServer, release func() error, err error)
}

// InProcessCallTimeout is the per-call limit of in-process (built-in)
// servers without a CallTimeout of their own: longer than the router
// default, since adding a large folder to the content store is one call.
// Cancelling the caller's context still ends a call at once.
var InProcessCallTimeout = 30 * time.Minute

// Options configure a Manager.
type Options struct {
	// ClientInfo is the client's name and version sent to every server at
	// initialize; empty fields default to supervisor.DefaultClientInfo's
	// ("switchboard", "dev").
	ClientInfo mcp.Implementation
	LogDir     string // one <server>.log per server; "" keeps logs in memory
	OnStatus   func(supervisor.Status)
	// BaseEnv is the environment servers start from; nil means the app's own,
	// with PATH widened to the login shell's.
	BaseEnv []string
	// Private are the app's own folders (its data folder): no sandboxed
	// server's folders may be one of them or hold one.
	Private []string
	// Redact, when set, masks secrets (the values resolved for the
	// servers' configs) wherever a server's words leave the manager: its
	// listings before they are pinned or kept (ListingsDir), call results
	// and errors (see router.Redactor), its status's error and
	// instructions, and its log.
	Redact router.Redactor
	// Tokens keeps remote servers' OAuth tokens (the OS keyring in the app);
	// nil keeps them in memory until the manager is gone.
	Tokens oauth.Store
	// OnLoginURL gets a login's authorization URL before the browser opens,
	// to offer it as a link in case none does.
	OnLoginURL func(server, url string)
	// ClientMetadataURL, when set, is offered as the OAuth client_id to
	// authorization servers that accept client ID metadata documents.
	ClientMetadataURL string
	// Gate screens every tool listing and call (the pins of trusted tool
	// definitions); nil offers every tool.
	Gate router.Gate
	// ListingsDir keeps each server's last tool listing, one file per
	// server, offered while the server starts the next time
	// (listings.go); "" keeps none.
	ListingsDir string
}

// RequestHandler answers requests a server sends to the client (sampling,
// elicitation). Methods are called concurrently, from any goroutine; they
// must honour ctx.
type RequestHandler interface {
	CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// Manager supervises servers.
type Manager struct {
	opts Options
	reg  *router.Router
	// skills are the servers' skills (skills.go), beside the router's tools.
	skills *skills.Catalog
	// localSkills are the skills on this computer's sessions (skills.go).
	localSkills atomic.Pointer[skills.Sessions]

	ctx    context.Context
	cancel context.CancelFunc
	// bg counts the manager's own goroutines (awaitLogin, notifyRoots),
	// added under mu while not closed; Close waits for them.
	bg sync.WaitGroup

	mu       sync.Mutex
	onClose  []func() error      // run after every server has stopped
	servers  map[string]*managed // what runs under each name
	stopping []*managed          // stopped, perhaps not ended yet
	order    []string            // the names of the last Apply, in order
	closed   bool
	requests RequestHandler
	auth     map[string]*authState // remote servers' logins, by name; outlive restarts
	// logLevels are the levels set with SetLogLevel, by name; outlive restarts.
	logLevels map[string]string
	// hold is HoldRecalled's channel: servers with a kept listing start
	// once it closes (nil: at once).
	hold <-chan struct{}
}

// authState is a remote server's Authorizer and what it was made for.
type authState struct {
	url      string
	settings oauth.Settings
	a        *oauth.Authorizer
	watching bool // awaitLogin looks at the keyring for a login (under Manager.mu)
	// logins are the cancels of the logins under way (CancelLogin; under
	// Manager.mu).
	logins map[*context.CancelFunc]bool
}

type managed struct {
	cfg    ServerConfig
	sup    *supervisor.Server
	cancel context.CancelFunc
	done   chan struct{}
	// settled closes once the server was first ready or gave up.
	settled     chan struct{}
	settledOnce sync.Once
	listing     *listing // its tools from its last run (nil: none kept)
}

// New returns a Manager with no servers.
func New(opts Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opts: opts, reg: router.New(router.Options{Gate: opts.Gate, Redact: opts.Redact, OwnData: builtin.Reserved}), ctx: ctx, cancel: cancel, servers: map[string]*managed{}, auth: map[string]*authState{}, logLevels: map[string]string{}}
	m.skills = skills.New(skillSessions{m}, skills.Options{ClientInfo: opts.ClientInfo, Redact: opts.Redact, OwnData: skillSessions{m}.own})
	return m
}

// SetRequestHandler routes the servers' sampling and elicitation requests to
// h. Call it before Apply: a server offers the capabilities from its next
// start. nil declines them (they are not offered). Each request reaches h
// tied to the caller whose call asked it (router.TiedTo), or is refused
// when that cannot be told (router.Tying): one rule for every door.
func (m *Manager) SetRequestHandler(h RequestHandler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h != nil {
		h = router.Tying(m.reg, h)
	}
	m.requests = h
	if h == nil {
		m.reg.SetURLElicitor(nil) // a typed nil would be called
	} else {
		m.reg.SetURLElicitor(h) // tool calls failing with -32042 show the URL too
	}
}

// Login runs the OAuth login of a remote server in the user's browser (see
// Options.OnLoginURL) and, once it succeeded, starts the server again with
// its new token. It returns when the browser came back, ctx ended, or the
// login timed out.
func (m *Manager) Login(ctx context.Context, name string) error {
	return m.LoginWith(ctx, name, nil)
}

// LoginWith is Login that hands the authorization URL to show (nil:
// Options.OnLoginURL), for a caller that offers the link itself.
func (m *Manager) LoginWith(ctx context.Context, name string, show func(url string)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m.mu.Lock()
	s, ok := m.servers[name]
	var a *oauth.Authorizer
	if ok && s.cfg.Remote != nil {
		a = m.authorizerLocked(s.cfg)
		st := m.auth[name]
		if st.logins == nil {
			st.logins = map[*context.CancelFunc]bool{}
		}
		st.logins[&cancel] = true
		defer func() {
			m.mu.Lock()
			delete(st.logins, &cancel)
			m.mu.Unlock()
		}()
	}
	m.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	if a == nil {
		return fmt.Errorf("%s: only remote (http/sse) servers log in; this one runs a command, give it its credentials as env values", name)
	}
	if f := m.opts.OnLoginURL; show == nil && f != nil {
		show = func(u string) { f(name, u) }
	}
	if err := a.Login(ctx, show); err != nil {
		return fmt.Errorf("%s: log in: %w", name, err)
	}
	return m.Restart(ctx, name)
}

// CancelLogin ends the logins of server name under way (the window's
// Cancel while it waits for the browser): their Login returns
// context.Canceled. It reports whether there was one.
func (m *Manager) CancelLogin(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.auth[name]
	if !ok {
		return false
	}
	for cancel := range st.logins {
		(*cancel)()
	}
	return len(st.logins) > 0
}

// authorizerLocked returns the Authorizer of a remote server, kept across
// restarts and Apply calls while its URL and OAuth settings stay the same.
func (m *Manager) authorizerLocked(c ServerConfig) *oauth.Authorizer {
	st, ok := m.auth[c.Name]
	if ok && st.url == c.Remote.URL && reflect.DeepEqual(st.settings, c.Remote.OAuth) {
		return st.a
	}
	a := oauth.New(oauth.Config{
		Server: c.Name, URL: c.Remote.URL, Settings: c.Remote.OAuth,
		ClientMetadataURL: m.opts.ClientMetadataURL,
	}, m.opts.Tokens)
	m.auth[c.Name] = &authState{url: c.Remote.URL, settings: c.Remote.OAuth, a: a}
	return a
}

// LoginRecheck is how often a remote server that needs a login looks at
// the keyring for one another process stored (the CLI's 'servers login'
// beside a running window or daemon); it reads the keyring only while the
// server needs the login.
var LoginRecheck = 3 * time.Second

// awaitLogin starts the server ms again once another process stored a
// login for it (oauth.Authorizer.Reload), looking every LoginRecheck while
// ms is the server of that name and still needs the login. One look-out
// per server at a time.
func (m *Manager) awaitLogin(name string, ms *managed) {
	m.mu.Lock()
	st, ok := m.auth[name]
	if !ok || st.watching || m.servers[name] != ms || m.closed {
		m.mu.Unlock()
		return
	}
	st.watching = true
	m.bg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.bg.Done()
		defer func() {
			m.mu.Lock()
			st.watching = false
			m.mu.Unlock()
		}()
		tick := time.NewTicker(LoginRecheck)
		defer tick.Stop()
		for {
			select {
			case <-m.ctx.Done():
				return
			case <-tick.C:
			}
			m.mu.Lock()
			current := m.servers[name] == ms
			m.mu.Unlock()
			if !current || ms.sup.Status().State != supervisor.NeedsLogin {
				return
			}
			if st.a.Reload() {
				slog.Info("a login for the server was stored by another process; starting it again", "server", name)
				_ = m.Restart(m.ctx, name)
				return
			}
		}
	}()
}

// Router is the one tool router over every server.
func (m *Manager) Router() *router.Router { return m.reg }

// Apply makes the running set match cfgs: new or changed servers (re)start,
// removed ones stop, disabled ones stop and show as disabled. Starting is
// parallel and never blocks the caller. A server without Builtin that takes
// a built-in's name (builtin.Reserved, or a Builtin's in cfgs) does not run:
// it is listed as "NAME (configured)" (see refusedName), in error saying to
// rename it, in Status, OnStatus and the router's listing errors, so it
// shows once and never as the built-in, which keeps the name and its tools.
func (m *Manager) Apply(cfgs []ServerConfig) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	builtins := map[string]bool{}
	for _, c := range cfgs {
		if c.Builtin != nil {
			builtins[c.Name] = true
		}
	}
	want := map[string]ServerConfig{}
	var run []ServerConfig
	m.order = m.order[:0]
	for _, c := range cfgs {
		if why := refusal(c, builtins); why != "" {
			c = ServerConfig{Name: refusedName(c.Name), StartError: why}
		}
		m.order = append(m.order, c.Name)
		if _, dup := want[c.Name]; !dup {
			want[c.Name] = c
			run = append(run, c)
		}
	}
	for name, s := range m.servers {
		c, ok := want[name]
		if ok && !sameConfig(c, s.cfg) {
			slog.Info("server restarts: its configuration changed", "server", name, "fields", changedFields(s.cfg, c))
		}
		if !ok || !sameConfig(c, s.cfg) {
			m.stopLocked(name)
		}
	}
	for _, c := range run {
		if s, running := m.servers[c.Name]; running {
			s.cfg.Roots = c.Roots
			if s.sup.SetRoots(c.Roots) {
				m.bg.Add(1)
				go func() {
					defer m.bg.Done()
					m.notifyRoots(s.sup)
				}()
			}
			continue
		}
		var after <-chan struct{}
		if c.Builtin != nil {
			after = m.endingLocked(c.Name) // the old one releases its data first
		}
		m.startLocked(c, after)
	}
}

// HoldRecalled makes the servers that the next Applies start and whose
// tools are known from their last run (listings.go) start only once
// release closes; the others start at once. Their tools are offered
// meanwhile, and a call of one waits. 'serve' holds them until it has
// answered its client's first tools/list: ten servers starting take both
// cores of a small machine for seconds, and the client (Codex gives a
// server one second) must get that answer first.
func (m *Manager) HoldRecalled(release <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hold = release
}

// endingLocked is the done channel of the last server stopped under name
// (by this Apply, an earlier one or Restart), or nil.
func (m *Manager) endingLocked(name string) <-chan struct{} {
	for _, s := range slices.Backward(m.stopping) {
		if s.cfg.Name == name {
			return s.done
		}
	}
	return nil
}

// refusal says why c may not run under its name, or "": only a built-in
// may take a built-in's name (its tools would be exposed, and approved, as
// the built-in's).
func refusal(c ServerConfig, builtins map[string]bool) string {
	if c.Builtin != nil || !builtin.Reserved(c.Name) && !builtins[c.Name] {
		return ""
	}
	return fmt.Sprintf("the name %q is reserved for Switchboard's built-in server; rename this server in config.json", c.Name)
}

// refusedName is what a configured server refused for taking a built-in's
// name is listed as: the window keys its Servers page by name, and the
// built-in's row keeps the name itself.
func refusedName(name string) string { return name + " (configured)" }

// sameConfig compares by value: Remote is a pointer, so printing the structs
// would compare addresses and restart every remote server on each Apply.
// Built-ins are the same while their Key is (functions never compare equal).
func sameConfig(a, b ServerConfig) bool {
	ab, bb := a.Builtin, b.Builtin
	if (ab == nil) != (bb == nil) || ab != nil && ab.Key != bb.Key {
		return false
	}
	a.Builtin, b.Builtin = nil, nil
	a.FetchTimeout, b.FetchTimeout = 0, 0
	a.ListingKey, b.ListingKey = "", "" // what it names changes the fields that restart
	if a.Sandbox == nil && b.Sandbox == nil {
		a.Roots, b.Roots = nil, nil // changed without a restart (Apply)
	}
	return reflect.DeepEqual(a, b)
}

// changedFields names the fields of ServerConfig that differ between a
// and b, for the log line that says why a server restarts.
func changedFields(a, b ServerConfig) []string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	var out []string
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, va.Type().Field(i).Name)
		}
	}
	return out
}

// specLocked is how the supervisor runs c.
func (m *Manager) specLocked(c ServerConfig) supervisor.Spec {
	spec := supervisor.Spec{
		Name:         c.Name,
		Remote:       c.Remote,
		StartTimeout: c.StartTimeout,
		Restart:      c.Restart,
		Redact:       redactFunc(m.opts.Redact),
		Roots:        c.Roots,
		LogLevel:     m.logLevels[c.Name],
	}
	switch {
	case c.Builtin != nil:
		spec.InProcess, spec.Remote = builtinStart(c.Builtin.Start, c.Name), nil
	case c.Remote != nil:
		spec.Auth = m.authorizerLocked(c)
	default:
		env := m.env(c.Env)
		spec.Process = process.Spec{Command: m.resolve(c.Command, env), Args: c.Args, Env: env, Dir: c.Dir}
		spec.Fetch, spec.FetchTimeout = fetch.For(spec.Process.Command, c.Args), c.FetchTimeout
		if c.Sandbox != nil {
			// Its own variables pass the sandbox's environment filter; the
			// app's folders stay out of its binds.
			policy := *c.Sandbox
			policy.Env, policy.Private, policy.Shared = sortedKeys(c.Env), slices.Clone(m.opts.Private), m.sharedLocked(c.Name)
			spec.Sandbox = &policy
		}
	}
	return spec
}

// sharedLocked are the folders the other sandboxed servers may write: a
// link one of them made there is not followed into the next one's
// sandbox.
func (m *Manager) sharedLocked(name string) []string {
	var out []string
	for other, s := range m.servers {
		if sb := s.cfg.Sandbox; other != name && sb != nil {
			out = append(out, sb.AllowWrite...)
			if sb.RootsAccess == sandbox.ReadWrite {
				out = append(out, s.cfg.Roots...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// builtinStart is start with the built-in's name said once: the supervisor
// puts it before a start error ("content-store: …"), so a
// builtin.StartError of the same server, which names it too ("built-in
// server content-store: …"), gives its cause instead.
func builtinStart(start supervisor.InProcess, name string) supervisor.InProcess {
	return func() (*server.MCPServer, func() error, error) {
		srv, release, err := start()
		var se *builtin.StartError
		if errors.As(err, &se) && se.Server == name {
			err = se.Err
		}
		return srv, release, err
	}
}

// startLocked creates the supervisor; a disabled server (or one with a
// StartError) is registered but not run, and has no log file, where
// nothing would be written. The server runs once after has closed (nil: at
// once).
func (m *Manager) startLocked(c ServerConfig, after <-chan struct{}) *managed {
	spec := m.specLocked(c)
	if m.opts.LogDir != "" && !c.Disabled && c.StartError == "" {
		spec.LogPath = filepath.Join(m.opts.LogDir, m.logNameLocked(c.Name))
	}
	ms := &managed{cfg: c, done: make(chan struct{}), settled: make(chan struct{}), listing: newListing(m.opts.ListingsDir, c, m.opts.Redact)}
	if after == nil && m.hold != nil && ms.listing != nil && ms.listing.recall() != nil {
		after = m.hold // HoldRecalled
	}
	// A replaced server's last words (its "stopped") must not overwrite the
	// status of the one that took its name.
	onStatus := func(st supervisor.Status) {
		switch st.State {
		case supervisor.Ready, supervisor.Error, supervisor.NeedsLogin, supervisor.Restarting:
			// Restarting: its first start failed, and that is its answer
			// for now (see WaitSettled).
			ms.settledOnce.Do(func() { close(ms.settled) })
		}
		m.mu.Lock()
		current := m.servers[c.Name] == ms
		m.mu.Unlock()
		if !current {
			return
		}
		if st.State == supervisor.NeedsLogin && c.Remote != nil {
			m.awaitLogin(c.Name, ms) // a login from the CLI reaches it
		}
		// Ready, restarted or stopped: a new session, so the router's
		// listeners (the gateway behind 'serve') hear the tools may differ.
		m.reg.Invalidate(c.Name)
		if m.opts.OnStatus != nil {
			m.opts.OnStatus(redactStatus(m.opts.Redact, st))
		}
	}
	sopts := supervisor.Options{ClientInfo: m.opts.ClientInfo, OnStatus: onStatus, OnNotification: m.onNotification}
	if m.requests != nil {
		sopts.Requests = m.requests
	}
	sup, err := supervisor.New(spec, sopts)
	if err != nil {
		// Only the log file can fail here; run with memory-only logs instead.
		spec.LogPath = ""
		sup, _ = supervisor.New(spec, sopts)
	}
	ms.sup = sup
	m.servers[c.Name] = ms
	m.reg.Add(source{ms})
	isBuiltin := c.Builtin != nil
	if c.StartError != "" {
		close(ms.done)
		close(ms.settled)
		if m.opts.OnStatus != nil {
			m.opts.OnStatus(supervisor.Status{Name: c.Name, State: supervisor.Error, Error: c.StartError, Since: time.Now(), Builtin: isBuiltin})
		}
		return ms
	}
	if c.Disabled {
		close(ms.done)
		close(ms.settled)
		if m.opts.OnStatus != nil {
			m.opts.OnStatus(supervisor.Status{Name: c.Name, State: supervisor.Disabled, Since: time.Now(), Builtin: isBuiltin})
		}
		return ms
	}
	ctx, cancel := context.WithCancel(m.ctx)
	ms.cancel = cancel
	go func() {
		defer close(ms.done)
		if after != nil {
			select {
			case <-after:
			case <-ctx.Done():
				_ = sup.Log().Close() // Run would have closed it
				return
			}
		}
		_ = sup.Run(ctx)
	}()
	return ms
}

// stopLocked cancels a server and forgets it; its process stops in the
// background (Close waits for it).
func (m *Manager) stopLocked(name string) *managed {
	s, ok := m.servers[name]
	if !ok {
		return nil
	}
	if s.cancel != nil {
		s.cancel()
	}
	delete(m.servers, name)
	m.reg.Remove(name)
	m.stopping = slices.DeleteFunc(m.stopping, func(s *managed) bool {
		select {
		case <-s.done:
			return true
		default:
			return false
		}
	})
	m.stopping = append(m.stopping, s)
	return s
}

// Test starts c on its own (beside the running copy, if any), runs
// initialize and tools/list, times each step and stops it: the Servers
// page's "Test connection" and `switchboard servers test`. A config that
// cannot run (StartError, a built-in's name) fails at the start step
// without starting, and so does a built-in (ErrBuiltinTest): a second copy
// would open its data beside the running one.
func (m *Manager) Test(ctx context.Context, c ServerConfig) supervisor.Probe {
	if c.Builtin != nil {
		c.StartError = fmt.Sprintf("%s: %v", c.Name, ErrBuiltinTest)
	}
	m.mu.Lock()
	builtins := map[string]bool{}
	for name, s := range m.servers {
		if s.cfg.Builtin != nil {
			builtins[name] = true
		}
	}
	m.mu.Unlock()
	if why := refusal(c, builtins); why != "" {
		c.StartError = why
	}
	if c.StartError != "" {
		return supervisor.Probe{Failed: supervisor.StepStart, Error: c.StartError, Steps: []supervisor.ProbeStep{{Name: supervisor.StepStart, Error: c.StartError}}}
	}
	m.mu.Lock()
	spec := m.specLocked(c)
	m.mu.Unlock()
	// The same capabilities as the server's own session: a server may list
	// tools only to clients that offer sampling, elicitation or roots
	// (server-everything lists 7 more), and a test that counted fewer tools
	// than the Servers row would not tell the truth. The probe calls no
	// tool, so no request reaches the handler.
	opts := supervisor.Options{ClientInfo: m.opts.ClientInfo}
	m.mu.Lock()
	if m.requests != nil { // a typed nil would offer what nothing answers
		opts.Requests = m.requests
	}
	m.mu.Unlock()
	sup, err := supervisor.New(spec, opts)
	if err != nil {
		return supervisor.Probe{Failed: supervisor.StepStart, Error: err.Error()}
	}
	return sup.Probe(ctx)
}

// Restart stops and starts one server (also after it gave up in error).
func (m *Manager) Restart(ctx context.Context, name string) error {
	m.mu.Lock()
	s := m.stopLocked(name)
	if s == nil {
		m.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	m.mu.Unlock()
	select {
	case <-s.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, again := m.servers[name]; !again && !m.closed {
		m.startLocked(s.cfg, nil)
	}
	return nil
}

// Status returns every server's status in the order Apply was given them,
// each name once. A configured server refused for taking a built-in's name
// is listed as "NAME (configured)" in error (see Apply).
func (m *Manager) Status() []supervisor.Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]supervisor.Status, 0, len(m.order))
	seen := map[string]bool{}
	for _, name := range m.order {
		s, ok := m.servers[name]
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, redactStatus(m.opts.Redact, s.status()))
	}
	return out
}

// redactStatus is st with what the server said masked (Options.Redact):
// its error (a stderr line, an exit message), its instructions, its
// description and the launcher's progress.
func redactStatus(rd router.Redactor, st supervisor.Status) supervisor.Status {
	if rd == nil || rd.Empty() {
		return st
	}
	st.Error, st.Instructions, st.Progress = rd.Redact(st.Error), rd.Redact(st.Instructions), rd.Redact(st.Progress)
	st.ServerInfo.Title, st.ServerInfo.Description = rd.Redact(st.ServerInfo.Title), rd.Redact(st.ServerInfo.Description)
	return st
}

// redactFunc is rd's Redact, nil without one (the supervisor's and the
// log's hook).
func redactFunc(rd router.Redactor) func(string) string {
	if rd == nil {
		return nil
	}
	return rd.Redact
}

func (s *managed) status() supervisor.Status {
	n, isBuiltin := s.cfg.Name, s.cfg.Builtin != nil
	switch {
	case s.cfg.StartError != "":
		return supervisor.Status{Name: n, State: supervisor.Error, Error: s.cfg.StartError, Builtin: isBuiltin}
	case s.cfg.Disabled:
		return supervisor.Status{Name: n, State: supervisor.Disabled, Builtin: isBuiltin}
	}
	return s.sup.Status()
}

// Server returns the supervisor of name (for logs and status).
func (m *Manager) Server(name string) (*supervisor.Server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.servers[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	return s.sup, nil
}

// WaitSettled blocks until every enabled server is ready, has given up
// (error) or failed its first start (restarting: its error is known, and
// waiting through every restart attempt — a server that hangs in its
// handshake, five times its startup timeout and the backoff — would make
// 'tools list' wait for nothing), or ctx ends. The CLI uses it before
// listing tools.
func (m *Manager) WaitSettled(ctx context.Context) { m.waitSettled(ctx, false) }

// WaitListed is WaitSettled where a server starting with its tools known
// from its last run (its Recall) counts as settled: 'serve' answers a
// client's first tools/list with those instead of waiting for the slowest
// server (Codex keeps the list it gets a second after starting 'serve').
func (m *Manager) WaitListed(ctx context.Context) { m.waitSettled(ctx, true) }

func (m *Manager) waitSettled(ctx context.Context, recalled bool) {
	for {
		settled := true
		m.mu.Lock()
		servers := make([]*managed, 0, len(m.servers))
		for _, s := range m.servers {
			servers = append(servers, s)
		}
		m.mu.Unlock()
		for _, s := range servers {
			st := s.status()
			if (st.State == supervisor.Starting || st.State == supervisor.Installing || st.State == supervisor.Stopped ||
				st.State == supervisor.Restarting && st.Error == "") && !(recalled && (source{s}).Recall() != nil) {
				settled = false
				break
			}
		}
		if settled {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// OnClose registers fn to run at the end of Close (releasing what built-in
// servers hold once nothing can call them any more).
func (m *Manager) OnClose(fn func() error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onClose = append(m.onClose, fn)
}

// Close stops every server and waits for their process trees to end (and
// built-ins to be released), including those Apply or Restart stopped just
// before.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	for name := range m.servers {
		m.stopLocked(name)
	}
	all := m.stopping // with those Apply and Restart stopped, still ending
	m.cancel()
	m.mu.Unlock()
	bg := make(chan struct{})
	go func() { m.bg.Wait(); close(bg) }()
	for _, done := range append(doneChans(all), bg) {
		select {
		case <-done:
		case <-ctx.Done():
			return fmt.Errorf("close servers: %w", ctx.Err())
		}
	}
	m.mu.Lock()
	hooks := m.onClose
	m.onClose = nil
	m.mu.Unlock()
	var errs []error
	for _, fn := range hooks {
		errs = append(errs, fn())
	}
	return errors.Join(errs...)
}

func doneChans(ms []*managed) []<-chan struct{} {
	out := make([]<-chan struct{}, 0, len(ms)+1)
	for _, s := range ms {
		out = append(out, s.done)
	}
	return out
}

// SetLogLevel asks the server name for MCP log messages at level and above
// (logging/setLevel, one of serverlog.Levels), now and after each restart
// while this manager runs; the messages land in its log.
func (m *Manager) SetLogLevel(ctx context.Context, name, level string) error {
	m.mu.Lock()
	s, ok := m.servers[name]
	if ok && serverlog.Rank(level) >= 0 {
		m.logLevels[name] = level
	}
	m.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	return s.sup.SetLogLevel(ctx, level)
}

// RootsNotifyTimeout bounds sending one server notifications/roots/list_changed.
var RootsNotifyTimeout = 10 * time.Second

// notifyRoots tells a running server its roots changed; a server that
// cannot be told (its session just ended) asks for them when it starts again.
func (m *Manager) notifyRoots(sup *supervisor.Server) {
	ctx, cancel := context.WithTimeout(m.ctx, RootsNotifyTimeout)
	defer cancel()
	if err := sup.RootsChanged(ctx); err != nil {
		sup.Log().Add(fmt.Sprintf("roots: could not send notifications/roots/list_changed: %v", err))
	}
}

func (m *Manager) onNotification(server string, n mcp.JSONRPCNotification) {
	m.reg.HandleNotification(server, n)
}

// AppSecretEnv are variables of the app's environment that are
// Switchboard's own secrets (the serve token, provider keys the CLI reads):
// no server inherits them; an entry that needs one sets it in its "env".
// A name ending in "*" is a prefix.
var AppSecretEnv = []string{"SWITCHBOARD_*", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}

// env builds a server's environment: the base without AppSecretEnv, plus
// its own variables. A sandboxed server's is cut further by the sandbox
// (sandbox.KeptEnv).
func (m *Manager) env(own map[string]string) []string {
	base := m.opts.BaseEnv
	if base == nil {
		base = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "PATH=") })
		base = append(base, "PATH="+process.LoginPATH())
	}
	out := process.DropEnv(base, AppSecretEnv)
	for _, k := range sortedKeys(own) {
		out = append(out, k+"="+own[k])
	}
	return out
}

// resolve finds command on the PATH of env, the server's environment (the
// login shell's unless the base or the server's entry sets one).
func (m *Manager) resolve(command string, env []string) string {
	path := process.LoginPATH()
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v // the last one wins, as in the process
		}
	}
	if p, err := process.LookPath(command, path); err == nil {
		return p
	}
	return command // Start reports "not found" with an install hint
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var unsafeFile = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// fileBase is server's name made a file name for its files (its log, its
// listing; each adds a hash of the name where this changed it, see logName
// and listingPath): only letters, digits and ._- kept, and never a Windows
// device name ("con" is _con).
func fileBase(server string) string {
	return cmp.Or(filename.Sanitize(unsafeFile.ReplaceAllString(server, "_")), "_")
}

// source adapts a managed server to the router.
type source struct{ m *managed }

func (s source) Name() string { return s.m.cfg.Name }

// Offers says whether the server's entry lets the router offer tool
// (router.ToolFilter).
func (s source) Offers(tool string) bool {
	c := &s.m.cfg
	return !slices.Contains(c.ExcludeTools, tool) && (len(c.IncludeTools) == 0 || slices.Contains(c.IncludeTools, tool))
}
func (s source) CallTimeout() time.Duration {
	if s.m.cfg.CallTimeout == 0 && s.m.cfg.Builtin != nil {
		return InProcessCallTimeout
	}
	return s.m.cfg.CallTimeout
}
func (s source) Client() (router.Client, error) {
	if s.m.cfg.StartError != "" {
		return nil, fmt.Errorf("%s", s.m.cfg.StartError)
	}
	if s.m.cfg.Disabled {
		return nil, fmt.Errorf("%s: server is disabled; enable it on the Servers page or with 'switchboard servers enable %s'", s.m.cfg.Name, s.m.cfg.Name)
	}
	c, err := s.m.sup.Client()
	if err != nil {
		return nil, err
	}
	return c, nil
}
