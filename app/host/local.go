package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/localmodel"
)

// Local runs the model on this computer: the provider of kind
// chat.KindLocal ("On this computer"). Opening the provider starts
// nothing; its first request starts llama-server with the model asked
// for (a request for another model restarts it with that one), fitted to
// the machine (localmodel.Fit), and waits until the model is loaded. It
// runs until the app closes, or LocalIdle passes without a request. A
// crash is restarted by the server's supervisor; a request meanwhile
// gets ErrLocalRestarting. Its log is beside the servers' logs.
type Local struct {
	h *Host
	// onStatus gets every change of Status (Options.OnLocal).
	onStatus func(LocalStatus)

	// startMu is held while a server starts or stops, so two requests
	// do not start two.
	startMu sync.Mutex

	mu     sync.Mutex
	srv    *localmodel.Server
	name   string // the model srv runs (or last ran)
	path   string // its file
	plan   localmodel.Plan
	state  localmodel.State
	err    string // why the last start failed, or why the server exited
	cpu    string // the CPU backend the runtime loaded (localmodel.Status.CPU)
	idle   *time.Timer
	inUse  int // requests streaming now; the idle stop waits for 0
	closed bool

	plans sync.Map // model path → planAt: Fit's answer, until the file changes
}

// LocalRuntimeVersion names the llama.cpp release the runtime is built
// from (node-llama-cpp's pinned copy).
const LocalRuntimeVersion = localmodel.RuntimeVersion

// LocalIdle is how long the model stays loaded without a request.
var LocalIdle = 15 * time.Minute

// Local model tuning for chats: tool search above this many tools, and
// this many tools per search, since a small model picks worse from many.
var (
	LocalSearchAbove = 8
	LocalSearchLimit = 3
)

// LocalStatus is what the model on this computer is doing.
type LocalStatus struct {
	State    string // stopped, starting, ready, restarting, failed
	Model    string // the model it runs (or starts)
	Err      string // why it failed or exited
	Restarts int
	Context  int // tokens
	Threads  int
	// QuantizedKV: the KV cache is q8_0 (memory was short).
	QuantizedKV bool
	// Memory is what it takes, in bytes: the weights, the KV cache at
	// Context, the compute buffers.
	Memory, KVMemory int64
	Why              string // how the context was chosen
	LogPath          string
	// NoRuntime says why llama-server cannot be found ("" when it is).
	NoRuntime string
	// CPU is the CPU backend the runtime loaded when it last ran
	// ("haswell", "sse42", ...: ggml's build for this CPU's generation,
	// localmodel.CPUVariants), "" before it has or when it has one built in.
	CPU string
	// Runtime is llama-server's path ("" when it is not installed: see
	// NoRuntime), and CPUVariants the CPU backends beside it (Preview).
	Runtime     string
	CPUVariants []string
}

// localFailed is LocalStatus.State when the last start failed.
const localFailed localmodel.State = "failed"

// LogPath is the runtime's log file.
func (l *Local) LogPath() string { return filepath.Join(l.h.dir.Logs(), "local-model.log") }

// Status is what the model on this computer is doing now.
func (l *Local) Status() LocalStatus {
	st := LocalStatus{State: string(localmodel.Stopped), LogPath: l.LogPath()}
	if _, err := localmodel.FindRuntime(); err != nil { // files looked at: not under the lock
		st.NoRuntime = err.Error()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.srv == nil && l.path != "" {
		if _, err := os.Stat(l.path); errors.Is(err, os.ErrNotExist) {
			l.forgetLocked() // its file is gone: not the model that starts next
		}
	}
	st.Model, st.Err, st.CPU = l.name, l.err, l.cpu
	if l.state != "" {
		st.State = string(l.state)
	}
	if l.srv != nil {
		s := l.srv.Status()
		st.Restarts = s.Restarts
		if s.Err != "" {
			st.Err = s.Err
		}
	}
	if l.name != "" {
		st.Context, st.Threads, st.QuantizedKV = l.plan.Context, l.plan.Threads, l.plan.QuantizedKV
		st.Memory, st.KVMemory, st.Why = l.plan.Total, l.plan.KVBytes, l.plan.Why
	}
	return st
}

// forget drops what Status says of model name when it is not running
// (its file was removed): the next message starts whatever it names.
func (l *Local) forget(name string) {
	l.mu.Lock()
	if l.srv == nil && strings.EqualFold(l.name, name) {
		l.forgetLocked()
	}
	l.mu.Unlock()
	l.changed()
}

func (l *Local) forgetLocked() {
	l.name, l.path, l.plan, l.err, l.state = "", "", localmodel.Plan{}, "", localmodel.Stopped
}

// Preview is Status with what a process that does not run the model
// itself can say ('switchboard models status'): the runtime's path and
// CPU backends, the backend it last loaded (from its log, which the
// window's runtime writes too), and, when model (else the default model
// of "On this computer") is not the one running, the plan it would run
// with here now. An error says why that model cannot run (not here, not
// a GGUF file); the status is filled in as far as it goes.
func (l *Local) Preview(model string) (LocalStatus, error) {
	st := l.Status()
	if bin, err := localmodel.FindRuntime(); err == nil {
		st.Runtime, st.CPUVariants = bin, localmodel.CPUVariants(bin)
	}
	if st.CPU == "" {
		st.CPU = l.lastCPU()
	}
	s, err := l.h.Settings.Chat()
	if err != nil {
		return st, err
	}
	if model == "" {
		for _, p := range s.Providers {
			if p.Kind == chat.KindLocal {
				model = p.DefaultModel
			}
		}
	}
	if model == "" || st.State != string(localmodel.Stopped) && strings.EqualFold(st.Model, model) {
		return st, nil
	}
	plan, _, err := l.planOf(s, model)
	st.Model = model
	if err != nil {
		return st, err
	}
	st.Context, st.Threads, st.QuantizedKV = plan.Context, plan.Threads, plan.QuantizedKV
	st.Memory, st.KVMemory, st.Why = plan.Total, plan.KVBytes, plan.Why
	return st, nil
}

// lastCPU is the CPU backend the runtime last said it loaded, in its log.
func (l *Local) lastCPU() string {
	lines, err := l.LogTail(4000)
	if err != nil {
		return ""
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if _, after, ok := strings.Cut(lines[i], "runs on ggml's CPU backend "); ok {
			cpu, _, _ := strings.Cut(after, " ")
			return cpu
		}
	}
	return ""
}

// changed tells onStatus.
func (l *Local) changed() {
	if l.onStatus != nil {
		l.onStatus(l.Status())
	}
}

type planAt struct {
	mod  time.Time
	size int64
	plan localmodel.Plan
}

// planOf is how the model named name would run here now: the settings'
// context and threads if set, else fitted to the free memory and CPUs.
func (l *Local) planOf(s ChatSettings, name string) (localmodel.Plan, string, error) {
	path, err := l.h.Models.Path(name)
	if err != nil {
		return localmodel.Plan{}, "", err
	}
	p, err := l.planFor(s, name, path)
	return p, path, err
}

// window is the context window model runs (or would run) with here, for
// the chat engine. A model that is not here gets the least any runs
// with: its turn fails as it starts, saying so (ModelMissingError), and a
// window of 0 would have the chat say first that it assumed one.
func (l *Local) window(s ChatSettings, model string) int {
	plan, _, err := l.planOf(s, model)
	switch {
	case err == nil:
		return plan.Context
	case errors.Is(err, ErrModelNotInstalled):
		return localmodel.MinContext
	}
	return 0
}

// planFor is planOf for the model's file at path: what the server runs with
// when it runs that model, else Fit's answer, kept until the file changes.
func (l *Local) planFor(s ChatSettings, name, path string) (localmodel.Plan, error) {
	l.mu.Lock()
	if l.srv != nil && l.name == name {
		p := l.plan
		l.mu.Unlock()
		return p, nil // what it runs with, not what would fit now
	}
	l.mu.Unlock()
	st, err := os.Stat(path)
	if err != nil {
		return localmodel.Plan{}, fmt.Errorf("the model file: %w", err)
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", path, s.Local.Context, s.Local.Threads)
	if v, ok := l.plans.Load(key); ok {
		if pa := v.(planAt); pa.mod.Equal(st.ModTime()) && pa.size == st.Size() {
			return pa.plan, nil
		}
	}
	p, err := localmodel.Fit(path, localmodel.ThisMachine(), s.Local.Context, s.Local.Threads)
	if err != nil {
		return localmodel.Plan{}, err
	}
	l.plans.Store(key, planAt{st.ModTime(), st.Size(), p})
	return p, nil
}

// ensure makes the server run model name, starting (or restarting with
// that model) and waiting until it is loaded.
// running is the server of model name if it is the one running, else nil.
func (l *Local) running(name string) *localmodel.Server {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.srv == nil || l.name != name {
		return nil
	}
	return l.srv
}

func (l *Local) ensure(ctx context.Context, name string) (*localmodel.Server, error) {
	l.startMu.Lock()
	defer l.startMu.Unlock()
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, ErrLocalStopped
	}
	if l.srv != nil && l.name == name {
		srv := l.srv
		l.mu.Unlock()
		return srv, nil
	}
	old := l.srv
	l.srv = nil
	l.mu.Unlock()
	if old != nil {
		_ = old.Close(context.WithoutCancel(ctx))
	}
	s, err := l.h.Settings.Chat()
	if err != nil {
		return nil, err
	}
	plan, path, err := l.planOf(s, name)
	if err != nil {
		return nil, err
	}
	bin, err := localmodel.FindRuntime()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.name, l.path, l.plan, l.state, l.err = name, path, plan, localmodel.Starting, ""
	l.mu.Unlock()
	l.changed()
	srv, err := localmodel.Start(ctx, localmodel.Options{
		Binary: bin, Model: path, Alias: name,
		Context: plan.Context, Threads: plan.Threads, QuantizedKV: plan.QuantizedKV,
		LogPath: l.LogPath(),
		OnStatus: func(st localmodel.Status) {
			l.mu.Lock()
			if st.CPU != "" {
				l.cpu = st.CPU
			}
			if l.srv != nil && l.name == name {
				l.state = l.srv.Status().State
			}
			l.mu.Unlock()
			l.changed()
		},
	})
	l.mu.Lock()
	if err != nil {
		// What Settings shows beside the log's path: without it.
		l.state, l.err = localFailed, localmodel.Reason(err)
		l.mu.Unlock()
		l.changed()
		return nil, &LocalStartError{Model: name, Log: l.LogPath(), Err: err}
	}
	if l.closed {
		l.mu.Unlock()
		_ = srv.Close(context.WithoutCancel(ctx))
		return nil, ErrLocalStopped
	}
	l.srv, l.state = srv, srv.Status().State
	l.mu.Unlock()
	l.changed()
	return srv, nil
}

// begin and end bracket a request: the idle stop counts from the last end.
func (l *Local) begin() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inUse++
	if l.idle != nil {
		l.idle.Stop()
	}
}

func (l *Local) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inUse--
	if l.inUse > 0 || l.closed {
		return
	}
	if l.idle != nil {
		l.idle.Stop()
	}
	l.idle = time.AfterFunc(LocalIdle, l.stopIdle)
}

// stopIdle stops the server if no request came since the timer was set.
func (l *Local) stopIdle() {
	l.startMu.Lock()
	defer l.startMu.Unlock()
	l.mu.Lock()
	srv := l.srv
	if l.inUse > 0 || srv == nil {
		l.mu.Unlock()
		return
	}
	l.srv, l.state = nil, localmodel.Stopped
	l.mu.Unlock()
	_ = srv.Close(context.Background())
	l.changed()
}

// Stop stops the model (Settings → Models, or a model removed); the
// next request starts it again.
func (l *Local) Stop(ctx context.Context) error {
	l.startMu.Lock()
	defer l.startMu.Unlock()
	l.mu.Lock()
	srv := l.srv
	l.srv, l.state = nil, localmodel.Stopped
	if l.idle != nil {
		l.idle.Stop()
	}
	l.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Close(ctx)
	}
	l.changed()
	return err
}

// close stops the server for good (Host.Close).
func (l *Local) close(ctx context.Context) error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	return l.Stop(ctx)
}

// localProvider is the provider "On this computer": OpenAI's wire to the
// llama-server running the model a request names, started on demand.
// It asks the server's address and client at each request, since another
// model is another server.
type localProvider struct {
	l    *Local
	name string // the provider's name in the settings
	s    ChatSettings
}

var _ provider.Provider = (*localProvider)(nil)

// Stream starts the model if needed and streams req to it. A model that
// is not here, or does not start, is said as such (ModelMissingError,
// LocalStartError: their sentences are what the chat shows); a request
// that breaks off because llama-server went down (killed, out of memory)
// gets ErrLocalRestarting, decided by asking the process (Server.Down),
// not by when its exit is noticed.
func (p *localProvider) Stream(ctx context.Context, req provider.Request, on func(provider.Event)) (provider.Response, error) {
	p.l.begin()
	defer p.l.end()
	srv, err := p.l.ensure(ctx, req.Model)
	if err != nil {
		if ctx.Err() != nil {
			return provider.Response{}, &provider.Error{Provider: p.name, Op: "start", Err: ctx.Err()}
		}
		return provider.Response{}, err
	}
	if st := srv.Status(); st.State != localmodel.Ready {
		return provider.Response{}, p.restarting(st)
	}
	op, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: p.name, BaseURL: srv.BaseURL(), APIKey: srv.APIKey(), HTTPClient: srv.HTTPClient()})
	if err != nil {
		return provider.Response{}, err
	}
	run := srv.Exited()
	resp, err := op.Stream(ctx, req, on)
	if err != nil && ctx.Err() == nil && brokeOff(err) && srv.Down(ctx, run) {
		re := p.restarting(srv.Status())
		// An answer cut short stays one: what arrived is kept as such.
		re.incomplete = errors.Is(err, provider.ErrIncomplete)
		return resp, re
	}
	return resp, err
}

// brokeOff says whether a request's error is its connection failing
// (refused, reset, an answer cut short), which a server that went down
// causes; an error the server answered with is not.
func brokeOff(err error) bool {
	if errors.Is(err, provider.ErrToolCallUnreadable) || errors.Is(err, provider.ErrContextLength) {
		return false // llama-server's own answer
	}
	return errors.Is(err, provider.ErrIncomplete) || errors.Is(err, provider.ErrUnreachable) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// LocalStartError is a model on this computer that did not start: its
// sentence says why in words (from llama-server's log where it says) and
// where the log is, once.
type LocalStartError struct {
	Model string
	Log   string // the runtime's log
	Err   error
}

func (e *LocalStartError) Error() string {
	return fmt.Sprintf("The model on this computer (%s) could not start: %s. Its log: %s", e.Model, localmodel.Reason(e.Err), e.Log)
}

func (e *LocalStartError) Unwrap() error { return e.Err }

// CountTokens counts req's tokens exactly on the running model's server
// (llama-server's /apply-template and /tokenize); provider.ErrNoCount
// while it is not running (it is not started to count).
func (p *localProvider) CountTokens(ctx context.Context, req provider.Request) (int, error) {
	srv := p.l.running(req.Model)
	if srv == nil || srv.Status().State != localmodel.Ready {
		return 0, provider.ErrNoCount
	}
	op, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: p.name, BaseURL: srv.BaseURL(), APIKey: srv.APIKey(), HTTPClient: srv.HTTPClient()})
	if err != nil {
		return 0, err
	}
	c, ok := op.(provider.Counter)
	if !ok {
		return 0, provider.ErrNoCount
	}
	return c.CountTokens(ctx, req)
}

// restarting is the error a request gets while the server is down.
func (p *localProvider) restarting(st localmodel.Status) *localRestartingError {
	why := st.Err
	if why == "" {
		why = "it exited"
	}
	return &localRestartingError{why: why, log: p.l.LogPath()}
}

// localRestartingError is a request made while llama-server is down
// (it exited, and is being started again): its sentence is what the
// chat shows, in both front doors.
type localRestartingError struct {
	why, log   string
	incomplete bool // an answer that broke off: it is provider.ErrIncomplete too
}

func (e *localRestartingError) Error() string {
	return fmt.Sprintf("The model on this computer stopped and is starting again (%s): send your message again in a moment; if it keeps stopping, see its log %s", e.why, e.log)
}

func (e *localRestartingError) Unwrap() []error {
	if e.incomplete {
		return []error{ErrLocalRestarting, provider.ErrIncomplete}
	}
	return []error{ErrLocalRestarting}
}

// Models lists the models installed to run here, without starting any,
// each with the context it would run with.
func (p *localProvider) Models(ctx context.Context) ([]provider.Model, error) {
	installed, err := p.l.h.Models.Installed()
	if err != nil {
		return nil, err
	}
	out := make([]provider.Model, 0, len(installed))
	for _, im := range installed {
		m := provider.Model{ID: im.Name, Name: im.Title}
		if plan, err := p.l.planFor(p.s, im.Name, im.Path); err == nil { // the path known: no second lookup
			m.ContextWindow = plan.Context
		}
		out = append(out, m)
	}
	return out, nil
}

// LogTail is the last lines of the runtime's log (none when it never ran).
func (l *Local) LogTail(lines int) ([]string, error) {
	b, err := readTail(l.LogPath(), 256<<10)
	if errors.Is(err, os.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(all) > lines && lines > 0 {
		all = all[len(all)-lines:]
	}
	return all, nil
}

// readTail reads at most n bytes from the end of the file at p.
func readTail(p string, n int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(st.Size()-n, 0)
	b := make([]byte, st.Size()-off)
	_, err = f.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if off > 0 { // start at a whole line
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return b, nil
}

// SetRun saves the context size (tokens) and threads the model runs with,
// 0 for fitted to the machine, and stops it: the next message starts it
// with them.
func (l *Local) SetRun(ctx context.Context, contextSize, threads int) error {
	if contextSize != 0 && (contextSize < 512 || contextSize > 1<<20) {
		return fmt.Errorf("context size %d: choose between 512 and 1048576 tokens, or 0 to fit it to this machine's memory", contextSize)
	}
	if threads < 0 || threads > 1024 {
		return fmt.Errorf("threads %d: choose between 1 and the CPUs this machine has, or 0 to fit them", threads)
	}
	if err := l.h.Settings.EditChat(func(s *ChatSettings) error {
		s.Local.Context, s.Local.Threads = contextSize, threads
		return nil
	}); err != nil {
		return err
	}
	return l.Stop(ctx)
}
