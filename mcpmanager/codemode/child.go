package codemode

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// memEnv tells the child its memory limit in megabytes.
const memEnv = "SWITCHBOARD_CODEMODE_MEMORY_MB"

// cpuTick is how often the child compares the script's computing time with
// its budget.
var cpuTick = 10 * time.Millisecond

// maxStack bounds the script's call depth: deeper recursion throws a
// RangeError the script may catch.
const maxStack = 4000

// interrupt reasons
type (
	cpuSpent struct{}
	stopped  struct{}
)

// serveChild is the child process: it limits its own memory, reads one
// run message, runs the script, and exits. Its exit code is 0 unless it
// could not talk to its parent.
func serveChild(in io.Reader, out io.Writer) int {
	if mb, err := strconv.Atoi(os.Getenv(memEnv)); err == nil && mb > 0 {
		// The Go runtime collects harder as it nears the limit; the
		// operating system's limit (limitSelf) is what holds.
		debug.SetMemoryLimit(int64(mb) << 20 * 3 / 4)
		if err := limitSelf(mb); err != nil {
			fmt.Fprintln(os.Stderr, "code mode: limit memory:", err)
			return 1
		}
	}
	c := &childSide{w: bufio.NewWriter(out), results: make(chan message, 1), gone: make(chan struct{})}
	runs := make(chan message, 1)
	go c.readLoop(in, runs)
	var m message
	select {
	case m = <-runs:
	case <-c.gone:
		return 0
	}
	lim := Limits{}
	if m.Limits != nil {
		lim = *m.Limits
	}
	done := c.run(m.Script, m.Functions, lim.withDefaults())
	done.Type = "done"
	if err := c.send(done); err != nil {
		return 1
	}
	return 0
}

// childSide is the child's end of the pipe and its script's state.
type childSide struct {
	wmu     sync.Mutex
	w       *bufio.Writer
	results chan message
	gone    chan struct{}
	vm      *goja.Runtime
	vmMu    sync.Mutex
	clock   clock
}

func (c *childSide) send(m message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		return err
	}
	return c.w.Flush()
}

// readLoop hands the run message and call results on; at the end of its
// input (the parent stopping it) it interrupts the script.
func (c *childSide) readLoop(in io.Reader, runs chan<- message) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Type {
		case "run":
			runs <- m
		case "result":
			c.results <- m
		}
	}
	close(c.gone)
	c.interrupt(stopped{})
}

func (c *childSide) interrupt(why any) {
	c.vmMu.Lock()
	defer c.vmMu.Unlock()
	if c.vm != nil {
		c.vm.Interrupt(why)
	}
}

// run runs the script and says how it ended, as a done message.
func (c *childSide) run(script string, fns []Function, lim Limits) message {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxStack)
	c.vmMu.Lock()
	c.vm = vm
	c.vmMu.Unlock()
	select {
	case <-c.gone:
		return message{Limit: "stopped"}
	default:
	}
	jsonObj := vm.Get("JSON").ToObject(vm)
	stringify, _ := goja.AssertFunction(jsonObj.Get("stringify"))
	parse, _ := goja.AssertFunction(jsonObj.Get("parse"))
	errorCtor := vm.Get("Error")
	env := &jsEnv{c: c, vm: vm, stringify: stringify, parse: parse, errorCtor: errorCtor}
	if err := vm.Set("console", env.console()); err != nil {
		return message{Error: err.Error()}
	}
	if err := vm.Set("tools", env.tools(fns)); err != nil {
		return message{Error: err.Error()}
	}
	prog, err := goja.Compile("script.js", "(async function() {"+script+"\n})", false)
	if err != nil {
		return message{Error: syntaxText(err), Line: lineOf(err.Error())}
	}
	stopWatch := c.watchCPU(lim.CPU())
	defer stopWatch()
	c.clock.resume()
	fnv, err := vm.RunProgram(prog)
	var pv goja.Value
	if err == nil {
		fn, _ := goja.AssertFunction(fnv)
		pv, err = fn(goja.Undefined())
	}
	c.clock.pause()
	if err != nil {
		return env.failure(err)
	}
	p, ok := pv.Export().(*goja.Promise)
	if !ok {
		return message{Error: "the script did not run as an async function"}
	}
	switch p.State() {
	case goja.PromiseStateRejected:
		return env.thrown(p.Result())
	case goja.PromiseStatePending:
		return message{Error: "the script is waiting for a promise that nothing will settle; scripts have no timers or events, so await only the tools' calls"}
	}
	s, err := stringify(goja.Undefined(), p.Result())
	if err != nil {
		return env.failure(err)
	}
	if goja.IsUndefined(s) {
		return message{Value: json.RawMessage("null")}
	}
	text := s.String()
	if len(text) > lim.OutputBytes() {
		return message{Limit: LimitOutput}
	}
	return message{Value: json.RawMessage(text)}
}

// jsEnv is what a script sees besides the language: tools and console.
type jsEnv struct {
	c         *childSide
	vm        *goja.Runtime
	stringify goja.Callable
	parse     goja.Callable
	errorCtor goja.Value
}

func (e *jsEnv) console() *goja.Object {
	con := e.vm.NewObject()
	print := func(call goja.FunctionCall) goja.Value {
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = e.show(a)
		}
		if err := e.c.send(message{Type: "log", Text: strings.Join(parts, " ")}); err != nil {
			e.c.interrupt(stopped{})
		}
		return goja.Undefined()
	}
	for _, name := range []string{"log", "info", "warn", "error", "debug"} {
		_ = con.Set(name, print)
	}
	return con
}

// show is how console.log prints a value: strings as they are, the rest
// as JSON (or as JavaScript would write it when JSON cannot).
func (e *jsEnv) show(v goja.Value) string {
	if s, ok := v.Export().(string); ok {
		return s
	}
	if obj, ok := v.(*goja.Object); ok {
		if _, isErr := obj.Export().(error); isErr || obj.ClassName() == "Error" {
			return v.String()
		}
	}
	if s, err := e.stringify(goja.Undefined(), v); err == nil && !goja.IsUndefined(s) {
		return s.String()
	}
	return v.String()
}

// tools is the tools object: tools[server][tool](args) for each function.
func (e *jsEnv) tools(fns []Function) *goja.Object {
	root := e.vm.NewObject()
	servers := map[string]*goja.Object{}
	for _, f := range fns {
		s := servers[f.Server]
		if s == nil {
			s = e.vm.NewObject()
			servers[f.Server] = s
			_ = root.Set(f.Server, s)
		}
		_ = s.Set(f.Tool, e.tool(f.Server, f.Tool))
	}
	return root
}

// tool is one async tool function: it asks the parent and settles its
// promise with the answer.
func (e *jsEnv) tool(server, tool string) func(goja.FunctionCall) goja.Value {
	name := fmt.Sprintf("tools[%q][%q]", server, tool)
	return func(call goja.FunctionCall) goja.Value {
		args := map[string]any{}
		if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			obj, ok := a.(*goja.Object)
			if !ok || obj.ClassName() == "Array" {
				panic(e.vm.NewTypeError(name + " takes one object of arguments, such as {path: \"a.txt\"}"))
			}
			s, err := e.stringify(goja.Undefined(), a)
			if err != nil {
				panic(err)
			}
			if err := json.Unmarshal([]byte(s.String()), &args); err != nil {
				panic(e.vm.NewTypeError(name + ": the arguments cannot be sent as JSON: " + err.Error()))
			}
		}
		p, resolve, reject := e.vm.NewPromise()
		e.c.clock.pause()
		reply, ok := e.c.call(Call{Server: server, Tool: tool, Args: args})
		e.c.clock.resume()
		switch {
		case !ok:
			e.c.interrupt(stopped{})
			_ = reject(e.newError("the script was stopped"))
		case reply.Error != "":
			_ = reject(e.newError(reply.Error))
		default:
			v, err := e.parse(goja.Undefined(), e.vm.ToValue(string(reply.Value)))
			if err != nil {
				_ = reject(err)
			} else {
				_ = resolve(v)
			}
		}
		return e.vm.ToValue(p)
	}
}

func (e *jsEnv) newError(msg string) *goja.Object {
	ctor, _ := goja.AssertConstructor(e.errorCtor)
	obj, err := ctor(nil, e.vm.ToValue(msg))
	if err != nil {
		return e.vm.NewTypeError(msg)
	}
	return obj
}

// call sends one tool call and waits for its answer; false when the parent
// is gone.
func (c *childSide) call(call Call) (message, bool) {
	if err := c.send(message{Type: "call", Call: &call}); err != nil {
		return message{}, false
	}
	select {
	case m := <-c.results:
		return m, true
	case <-c.gone:
		return message{}, false
	}
}

// failure is a done message for an error out of the engine: a limit, a
// stop, or an exception.
func (e *jsEnv) failure(err error) message {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		switch ie.Value().(type) {
		case cpuSpent:
			return message{Limit: LimitCPU}
		default:
			return message{Limit: "stopped"}
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return message{Error: fmt.Sprintf("functions called each other more than %d deep (endless recursion?)", maxStack), Line: lineOf(so.String())}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return e.thrown(ex.Value())
	}
	return message{Error: err.Error()}
}

// thrown describes a value the script threw (or rejected with).
func (e *jsEnv) thrown(v goja.Value) message {
	text := e.show(v)
	line := 0
	if obj, ok := v.(*goja.Object); ok {
		if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) {
			line = lineOf(st.String())
		}
	}
	return message{Error: "uncaught " + text, Line: line}
}

var (
	stackLine  = regexp.MustCompile(`script\.js:(\d+):`)
	syntaxLine = regexp.MustCompile(`Line (\d+):`)
)

// lineOf finds the script's line in a stack or a syntax error.
func lineOf(s string) int {
	for _, re := range []*regexp.Regexp{stackLine, syntaxLine} {
		if m := re.FindStringSubmatch(s); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

func syntaxText(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "SyntaxError: ")
	s = strings.TrimPrefix(s, "script.js: ")
	if i := strings.Index(s, ": "); i >= 0 && strings.HasPrefix(s, "Line ") {
		s = s[i+2:]
	}
	return "syntax error: " + s
}

// watchCPU interrupts the script once its computing time passes budget.
func (c *childSide) watchCPU(budget time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(cpuTick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if c.clock.used() > budget {
					c.interrupt(cpuSpent{})
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// clock adds up the time the script computes, not the time it waits for
// tool calls.
type clock struct {
	mu      sync.Mutex
	total   time.Duration
	since   time.Time
	running bool
}

func (k *clock) resume() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.since, k.running = time.Now(), true
}

func (k *clock) pause() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running {
		k.total += time.Since(k.since)
		k.running = false
	}
}

func (k *clock) used() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running {
		return k.total + time.Since(k.since)
	}
	return k.total
}
