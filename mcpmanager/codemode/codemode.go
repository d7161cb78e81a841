package codemode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Function is one tool a script may call: tools[Server][Tool](args).
type Function struct {
	Server      string          `json:"server"`
	Tool        string          `json:"tool"`
	Description string          `json:"description,omitempty"`
	Input       json.RawMessage `json:"input,omitempty"`  // the tool's input schema
	Output      json.RawMessage `json:"output,omitempty"` // its output schema, when it declares one
}

// Call is one tool call a script makes.
type Call struct {
	// N counts the script's calls from 1.
	N      int            `json:"n"`
	Server string         `json:"server"`
	Tool   string         `json:"tool"`
	Args   map[string]any `json:"args"`
}

// ArgsJSON is a call's arguments as JSON, with <, > and & as they are:
// json.Marshal's escapes would make a script's arguments up to six times
// the bytes its arguments limit counted, in the history and upstream.
func ArgsJSON(args map[string]any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// CallFunc answers a script's tool call with the value the script's
// await gets (see Value), or an error the script sees thrown (and may
// catch). It runs on the goroutine of Run, one call at a time.
type CallFunc func(ctx context.Context, c Call) (any, error)

// Result is what a script that ended by itself gives back.
type Result struct {
	// Value is the script's return value as JSON ("null" for none).
	Value json.RawMessage `json:"value"`
	// Logs are the lines console.log (and .info, .warn, .error) printed.
	Logs []string `json:"logs,omitempty"`
	// Calls is how many tool calls the script made.
	Calls int `json:"calls"`
}

// Timeouts of the child process, as package variables for tests.
var (
	// StopGrace is how long a child asked to stop (its stdin closed) has
	// before it is killed.
	StopGrace = 2 * time.Second
	// StartTimeout bounds the child's start (its first line).
	StartTimeout = 20 * time.Second
)

// Executable is the program run as a script's child process: this one,
// which must call MaybeChild before anything else (main, and TestMain in
// tests that run scripts).
var Executable = os.Executable

// childEnv marks a process started as a script's child.
const childEnv = "SWITCHBOARD_CODEMODE_CHILD"

// MaybeChild runs the script child and exits when this process was
// started as one; otherwise it returns at once.
func MaybeChild() {
	if os.Getenv(childEnv) != "1" {
		return
	}
	os.Exit(serveChild(os.Stdin, os.Stdout))
}

// message is one JSON line between parent and child.
type message struct {
	Type string `json:"type"` // run, call, result, log, done, ready
	// run
	Script    string     `json:"script,omitempty"`
	Functions []Function `json:"functions,omitempty"`
	Limits    *Limits    `json:"limits,omitempty"`
	// call, result
	Call  *Call           `json:"call,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	// result: the call's error; done: the script's error
	Error string `json:"error,omitempty"`
	// done: which limit ended the script, if one did; Line: where it threw
	Limit string `json:"limit,omitempty"`
	Line  int    `json:"line,omitempty"`
	// log
	Text string `json:"text,omitempty"`
}

// Run runs script, the body of an async function, in a child process
// with lim's limits (zero fields take the defaults), calling call for each
// tool call it makes and onLog for each line it prints (nil: none). The
// error is a *LimitError when a limit ended it, a *ScriptError when it
// threw or did not compile, or ctx's error when ctx ended first.
func Run(ctx context.Context, script string, fns []Function, lim Limits, call CallFunc, onLog func(string)) (Result, error) {
	lim = lim.withDefaults()
	exe, err := Executable()
	if err != nil {
		return Result{}, &Error{Op: "start", Err: err}
	}
	// The wall clock's cause names the limit, so a tool call it cuts off
	// (context.Cause of the call's context) can say why.
	wctx, cancel := startWall(ctx, lim.Wall(), limitError(LimitWall, lim))
	defer cancel()
	cmd := exec.Command(exe)
	// No secret of this process's environment reaches the script's; no
	// stack dump hides why it ended (a memory limit is "out of memory").
	cmd.Env = []string{childEnv + "=1", memEnv + "=" + fmt.Sprint(lim.MemoryMB), "GOTRACEBACK=none"}
	if root := os.Getenv("SYSTEMROOT"); root != "" {
		cmd.Env = append(cmd.Env, "SYSTEMROOT="+root) // Windows' runtime needs it
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Result{}, &Error{Op: "start", Err: err}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Result{}, &Error{Op: "start", Err: err}
	}
	stderr := &headBuffer{max: 8 << 10}
	cmd.Stderr = stderr
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return Result{}, &Error{Op: "start", Path: exe, Err: err}
	}
	release, err := confine(cmd, lim)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return Result{}, &Error{Op: "limit memory", Path: exe, Err: err}
	}
	defer release()
	c := &child{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 64<<10), lim: lim}
	waited := make(chan struct{})
	go func() {
		select {
		case <-wctx.Done():
			c.stop(waited)
		case <-waited:
		}
	}()
	res, err := c.run(wctx, script, fns, call, onLog)
	c.stop(waited)
	waitErr := cmd.Wait()
	close(waited)
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return res, ctx.Err()
	case wctx.Err() != nil:
		return res, limitError(LimitWall, lim)
	case errors.Is(err, errChildGone):
		if outOfMemory(stderr.String()) {
			return res, limitError(LimitMemory, lim)
		}
		return res, &Error{Op: "run", Path: exe, Err: fmt.Errorf("the script's process ended unexpectedly (%v): %s", waitErr, lastLine(stderr.String()))}
	}
	return res, err
}

// errChildGone: the child's output ended before it said it was done.
var errChildGone = errors.New("the script's process ended")

// child is one running script process.
type child struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	out      *bufio.Reader
	lim      Limits
	stopOnce sync.Once
	writeMu  sync.Mutex
}

// stop ends the child in stages: its stdin is closed, which makes it
// interrupt the script and exit, then after StopGrace it is killed unless
// waited has closed (the process was waited for).
func (c *child) stop(waited <-chan struct{}) {
	c.stopOnce.Do(func() {
		c.writeMu.Lock()
		_ = c.stdin.Close()
		c.writeMu.Unlock()
		go func() {
			t := time.NewTimer(StopGrace)
			defer t.Stop()
			select {
			case <-waited:
			case <-t.C:
				_ = c.cmd.Process.Kill()
			}
		}()
	})
}

func (c *child) send(m message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.stdin.Write(append(b, '\n'))
	return err
}

// callLine starts the line of a tool call (the child writes the type
// first).
var callLine = []byte(`{"type":"call"`)

// read is the child's next message. A line longer than its limit (a
// call's, the arguments limit; any other's, the output limit) is that
// limit: the child holds its script to both, so only a broken child gets
// here, and its line is not read whole into memory.
func (c *child) read() (message, error) {
	var line []byte
	for {
		chunk, isPrefix, err := c.out.ReadLine()
		if err != nil {
			return message{}, errChildGone
		}
		line = append(line, chunk...)
		limit, max := LimitOutput, c.lim.OutputBytes()+64<<10
		if bytes.HasPrefix(line, callLine) {
			limit, max = LimitArgs, c.lim.ArgsBytes()+64<<10
		}
		if len(line) > max {
			return message{}, limitError(limit, c.lim)
		}
		if !isPrefix {
			break
		}
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return message{}, &Error{Op: "read", Err: fmt.Errorf("the script's process wrote a line that is not a message: %w", err)}
	}
	return m, nil
}

func (c *child) run(ctx context.Context, script string, fns []Function, call CallFunc, onLog func(string)) (Result, error) {
	var res Result
	lim := c.lim
	if err := c.send(message{Type: "run", Script: script, Functions: fns, Limits: &lim}); err != nil {
		return res, errChildGone
	}
	output := 0
	for {
		m, err := c.read()
		if err != nil {
			return res, err
		}
		switch m.Type {
		case "log":
			output += len(m.Text) + 1
			if output > lim.OutputBytes() {
				return res, limitError(LimitOutput, lim)
			}
			res.Logs = append(res.Logs, m.Text)
			if onLog != nil {
				onLog(m.Text)
			}
		case "call":
			if m.Call == nil {
				return res, &Error{Op: "read", Err: errors.New("the script's process sent a call without its tool")}
			}
			res.Calls++
			if res.Calls > lim.MaxCalls {
				return res, limitError(LimitCalls, lim)
			}
			m.Call.N = res.Calls
			v, cerr := call(ctx, *m.Call)
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			reply := message{Type: "result"}
			if cerr != nil {
				reply.Error = cerr.Error()
			} else if reply.Value, err = json.Marshal(v); err != nil {
				reply.Value, reply.Error = nil, "the tool's result could not be encoded: "+err.Error()
			}
			if err := c.send(reply); err != nil {
				return res, errChildGone
			}
		case "done":
			output += len(m.Value)
			switch {
			case m.Limit == "stopped":
				return res, errChildGone
			case m.Limit != "":
				le := limitError(m.Limit, lim)
				le.Line = m.Line
				return res, le
			case output > lim.OutputBytes():
				return res, limitError(LimitOutput, lim)
			case m.Error != "":
				return res, &ScriptError{Line: m.Line, Message: m.Error}
			}
			res.Value = m.Value
			if len(res.Value) == 0 {
				res.Value = json.RawMessage("null")
			}
			return res, nil
		}
	}
}

// headBuffer keeps the first max bytes written to it: where a dying Go
// process says why, before its dump.
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *headBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.b); room > 0 {
		t.b = append(t.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (t *headBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// outOfMemory reports whether the child's stderr says its memory ran out:
// the Go runtime's own words, or a thread the system would not give it
// memory for (a thread's stack counts against the limit too), or the race
// detector's shadow memory refused (ENOMEM, in a test build).
func outOfMemory(stderr string) bool {
	s := strings.ToLower(stderr)
	for _, w := range []string{"out of memory", "cannot allocate memory", "pthread_create failed", "errno=1455", "(errno: 12)"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "fatal error") || strings.HasPrefix(l, "panic") {
			return l
		}
	}
	if len(lines) == 0 || lines[0] == "" {
		return "it printed nothing"
	}
	return string(bytes.TrimSpace([]byte(lines[len(lines)-1])))
}
