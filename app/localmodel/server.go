package localmodel

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor/restart"
)

// Timeouts and backoff, variables so tests can shorten them.
var (
	// LoadTimeout bounds how long a model may take to load.
	LoadTimeout = 2 * time.Minute
	// RestartBackoff is the first wait before a crashed server is started
	// again; it doubles up to MaxBackoff and starts over after a run of
	// a minute.
	RestartBackoff = 500 * time.Millisecond
	MaxBackoff     = 30 * time.Second
)

// Sentinel errors.
var (
	// ErrNoRuntime: the llama-server binary is missing.
	ErrNoRuntime = errors.New("the local model runtime (llama-server) is not installed")
	// ErrClosed: the server was closed.
	ErrClosed = errors.New("the local model is stopped")
	// ErrCPU: this CPU lacks the instructions the runtime is built for
	// (a runtime with one CPU backend built in, for AVX2; the Linux
	// runtime has one for every x86-64 CPU, CPUVariants).
	ErrCPU = errors.New("this computer's processor lacks AVX2, which this build of the model runtime needs: run a model with Ollama or LM Studio instead, or use a hosted provider")
)

// Options say what to run.
type Options struct {
	Binary string // llama-server
	Model  string // the GGUF file
	// Alias is the model's name in the OpenAI API (default "local").
	Alias string
	// Context is the context size in tokens (0: 4096).
	Context int
	// Threads (0: the number of CPUs).
	Threads int
	// QuantizedKV stores the KV cache as q8_0 (half the memory).
	QuantizedKV bool
	// LogPath receives the server's output (appended, rotated to .1 as
	// the servers' logs are); "" discards it.
	LogPath string
	// OnStatus gets every change of Status; it must not block.
	OnStatus func(Status)
}

// State of the server: the servers' states (supervisor.State), of which
// the local model goes through these four.
type State = supervisor.State

// States.
const (
	Starting   = supervisor.Starting
	Ready      = supervisor.Ready
	Restarting = supervisor.Restarting // it exited; started again after a wait
	Stopped    = supervisor.Stopped
)

// Status is what the server is doing.
type Status struct {
	State    State
	Err      string // why it last exited, while Restarting
	Restarts int
	PID      int
	// CPU is the CPU backend llama-server loaded ("haswell", "sse42": one
	// of CPUVariants), once it is Ready; "" for a runtime with one built in.
	CPU string
}

// Server is a running llama-server. Its methods are safe for concurrent
// use.
type Server struct {
	opts   Options
	key    string
	ep     *endpoint // where llama-server listens, and the app's way there
	client *http.Client

	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	mu     sync.Mutex
	status Status
	ready  chan struct{}   // closed at the first Ready
	exited <-chan struct{} // closed when the process that is (or was last) Ready exits
}

// Start starts the server and waits until its model is loaded (or ctx
// ends, or the first start fails); the server then runs until Close.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if _, err := os.Stat(opts.Binary); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoRuntime, err)
	}
	if _, err := os.Stat(opts.Model); err != nil {
		return nil, fmt.Errorf("the model file: %w", err)
	}
	if !cpuCanRun(opts.Binary) {
		return nil, ErrCPU
	}
	if opts.Alias == "" {
		opts.Alias = "local"
	}
	if opts.Context <= 0 {
		opts.Context = 4096
	}
	if opts.Threads <= 0 {
		opts.Threads = runtime.NumCPU()
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	key := hex.EncodeToString(b[:])
	ep, err := openEndpoint(key)
	if err != nil {
		return nil, fmt.Errorf("prepare the local model's connection: %w", err)
	}
	// The app's own transport: it dials the endpoint whatever the URL's
	// host says, and never through an HTTP proxy from the environment.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = ep.dial
	s := &Server{opts: opts, key: key, ep: ep, client: &http.Client{Transport: replayable{tr}},
		ready: make(chan struct{}), status: Status{State: Starting}}
	rctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	first := make(chan error, 1)
	s.wg.Go(func() {
		defer ep.close() // after the last llama-server exited
		s.run(rctx, first)
	})
	select {
	case err := <-first:
		if err != nil {
			_ = s.Close(context.Background())
			return nil, err
		}
		return s, nil
	case <-ctx.Done():
		_ = s.Close(context.Background())
		return nil, ctx.Err()
	}
}

// BaseURL is the server's OpenAI-compatible API root (…/v1), for requests
// sent with HTTPClient: on Unix its host is only a name, since the client
// dials the socket. It stays the same across restarts.
func (s *Server) BaseURL() string { return s.ep.base() + "/v1" }

// HTTPClient is the client that reaches the server (one for the server's
// life, so its connections are reused; no overall timeout, as a streamed
// answer may take minutes).
func (s *Server) HTTPClient() *http.Client { return s.client }

// APIKey is the random key the server requires.
func (s *Server) APIKey() string { return s.key }

// Model is the model's name in the API.
func (s *Server) Model() string { return s.opts.Alias }

// Status is what the server is doing now.
func (s *Server) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

func (s *Server) set(f func(*Status)) {
	s.mu.Lock()
	f(&s.status)
	st := s.status
	s.mu.Unlock()
	if s.opts.OnStatus != nil {
		s.opts.OnStatus(st)
	}
}

// run starts the server, and again each time it exits, until ctx ends:
// restart.Loop, the servers' loop. first gets the first start's outcome; a
// first start that fails is not retried (Start reports it). A run that
// lasted a minute from its start resets the backoff.
func (s *Server) run(ctx context.Context, first chan<- error) {
	n := 0
	_ = restart.Loop{
		Delay: RestartBackoff, Max: MaxBackoff, StableAfter: time.Minute,
		Once: func(ctx context.Context, _ int) (time.Time, error) {
			started, i := time.Now(), n
			n++
			return started, s.once1(ctx, func(ready error) {
				if i == 0 {
					first <- ready
				}
			})
		},
		Failed: func(err error, _ time.Time, _ int) bool {
			if n == 1 && s.Status().State != Ready {
				return true // the first start failed: Start reported it
			}
			s.set(func(st *Status) {
				st.State, st.PID, st.Restarts = Restarting, 0, st.Restarts+1
				if err != nil {
					st.Err = err.Error()
				}
			})
			return false
		},
		Stopped: func() { s.set(func(st *Status) { st.State, st.PID = Stopped, 0 }) },
	}.Run(ctx)
}

// once1 runs the server once: it reports when the model is loaded (or
// why it is not) through loaded, and returns when the process exits.
func (s *Server) once1(ctx context.Context, loaded func(error)) error {
	listen, err := s.ep.listen()
	if err != nil {
		loaded(err)
		return err
	}
	// Connections kept alive to the run before are dead.
	defer s.client.CloseIdleConnections()
	args := append([]string{"--model", s.opts.Model, "--alias", s.opts.Alias}, listen...)
	args = append(args,
		"--ctx-size", strconv.Itoa(s.opts.Context), "--threads", strconv.Itoa(s.opts.Threads),
		"--parallel", "1", "--jinja", "--no-webui",
		// An answer stops at half the context: a small model that loops
		// would otherwise fill it, for minutes on a CPU.
		"--n-predict", strconv.Itoa(max(s.opts.Context/2, 256)),
		// No thinking (Qwen3's <think>, and others' that the template
		// switches): on a CPU a small model's reasoning costs minutes before
		// its first word, and the chat does not show it.
		"--reasoning", "off",
	)
	if s.opts.QuantizedKV {
		args = append(args, "--cache-type-k", "q8_0", "--cache-type-v", "q8_0")
	}
	// The servers' log: lines, rotated at its size limit (llama-server
	// logs every request's timings, for as long as the app runs).
	lg, err := serverlog.Open(s.opts.LogPath, serverlog.Options{})
	if err != nil {
		loaded(err)
		return err
	}
	defer lg.Close()
	// Through the servers' process package: its own process group, a
	// watchdog that kills it should the app die (even by SIGKILL), and a
	// staged stop. Without the LLAMA_ARG_* variables a user may have set
	// for their own llama.cpp, which would change what the app asked for.
	// The key goes in the environment (the release reads LLAMA_API_KEY
	// when --api-key is not given): a process's environment is readable
	// only by its user, its argv by everyone.
	env := append(process.DropEnv(os.Environ(), []string{"LLAMA_*"}), "LLAMA_API_KEY="+s.key)
	p, err := process.Start(process.Spec{Command: s.opts.Binary, Args: args, Env: env})
	if err != nil {
		loaded(err)
		return err
	}
	// Its output goes to the log, and its last lines are kept here too:
	// a load that fails says why only there.
	var copied sync.WaitGroup
	last := &lastLines{}
	for _, r := range []io.Reader{p.Stdout, p.Stderr} {
		copied.Go(func() { lg.Consume(io.TeeReader(r, last)) })
	}
	defer copied.Wait()
	stop := func() { _ = p.Abort(context.Background()) }
	s.set(func(st *Status) { st.State, st.PID = Starting, p.PID() })

	wait := make(chan error, 1)
	hctx, hcancel := context.WithTimeout(ctx, LoadTimeout)
	go func() { wait <- s.health(hctx, p) }()
	select {
	case err := <-wait:
		hcancel()
		if err != nil {
			stop()
			copied.Wait() // all it wrote is in last
			why, line := explainLoad(last.all())
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				why, line = fmt.Sprintf("it took longer than %s to load it (a model too large for this computer, or a slow disk): choose a smaller model", LoadTimeout), ""
			}
			err = &LoadError{Why: why, Line: line, Log: s.opts.LogPath, Err: err}
			loaded(err)
			return err
		}
	case <-ctx.Done():
		hcancel()
		stop()
		loaded(ErrClosed)
		return ErrClosed
	}
	// The CPU backend ggml chose for this CPU, which llama-server logs
	// only at a verbosity that floods the log: the log and Status say it.
	cpu, file := cpuBackend(p.PID())
	if cpu != "" {
		lg.Add(fmt.Sprintf("switchboard: llama-server runs on ggml's CPU backend %s (%s), the best for this processor of the %d beside it", cpu, file, len(CPUVariants(s.opts.Binary))))
	}
	s.mu.Lock()
	s.exited = p.Done()
	s.mu.Unlock()
	s.set(func(st *Status) { st.State, st.Err, st.CPU = Ready, "", cpu })
	s.mu.Lock()
	select {
	case <-s.ready:
	default:
		close(s.ready)
	}
	s.mu.Unlock()
	loaded(nil)
	select {
	case <-p.Done():
		err := p.Err()
		if err == nil {
			err = errors.New("llama-server exited")
		}
		return fmt.Errorf("llama-server stopped: %w", err)
	case <-ctx.Done():
		stop()
		return ErrClosed
	}
}

// health polls /health until the model is loaded (200), the process
// exits, or ctx ends.
func (s *Server) health(ctx context.Context, p *process.Process) error {
	url := s.ep.base() + "/health"
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+s.key)
		if res, err := s.client.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.Done():
			if err := p.Err(); err != nil {
				return err
			}
			return errors.New("it exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// DownWait bounds how long Down waits for the server's answer.
var DownWait = 2 * time.Second

// Exited is closed when the llama-server process that serves now exits
// (nil before it is first Ready): a request takes it before it is sent,
// for Down.
func (s *Server) Exited() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exited
}

// Down says whether the process that served a request that broke off
// (run: Exited when it was sent) is down: it exited, the server is not
// Ready, or it does not answer /health within DownWait. A llama-server
// killed mid-answer (kill -9, the out-of-memory killer) breaks the
// connection a moment before its exit reaches the supervisor, and Status
// says Ready until then, so the process itself is asked: the answer does
// not depend on which came first, nor on a restart that is Ready again.
func (s *Server) Down(ctx context.Context, run <-chan struct{}) bool {
	if run == nil {
		return true
	}
	select {
	case <-run:
		return true
	default:
	}
	if s.Status().State != Ready {
		return true
	}
	hctx, cancel := context.WithTimeout(ctx, DownWait)
	defer cancel()
	alive := make(chan bool, 1)
	go func() { alive <- s.healthy(hctx) }()
	select {
	case <-run:
		return true
	case ok := <-alive:
		return !ok
	}
}

// healthy asks /health once: true when it answers 200.
func (s *Server) healthy(ctx context.Context) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.ep.base()+"/health", nil)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := s.client.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// Close stops the server; safe to call more than once.
func (s *Server) Close(ctx context.Context) error {
	s.once.Do(func() {
		s.cancel()
	})
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func logName(p string) string {
	if p == "" {
		return "its log (none kept)"
	}
	return p
}
