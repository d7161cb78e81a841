package codemode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
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

// maxStack bounds the script's call depth: deeper recursion ends the
// script (goja's stack overflow is no exception a script can catch), as a
// ScriptError naming the line.
const maxStack = 4000

// cpuGrace is how long past its CPU budget a script may stay inside one
// built-in operation, which goja does not interrupt (it checks between
// instructions), before its process ends itself with the CPU limit.
var cpuGrace = time.Second

// interrupt reasons
type (
	cpuSpent  struct{}
	argsSpent struct{}
	stopped   struct{}
)

// ended is the done message of a script that an interrupt stopped, by
// its reason; ok is false when nothing interrupted it.
func ended(why any) (m message, ok bool) {
	switch why.(type) {
	case cpuSpent:
		return message{Limit: LimitCPU}, true
	case argsSpent:
		return message{Limit: LimitArgs}, true
	case stopped:
		return message{Limit: "stopped"}, true
	}
	return message{}, false
}

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
	if err := c.end(c.run(m.Script, m.Functions, lim.withDefaults())); err != nil {
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
	why     any // the first interrupt's reason
	clock   clock
	endOnce sync.Once
	// argsSent is the bytes of arguments the script's calls sent.
	argsSent int
}

// send writes one message line. HTML characters are not escaped: a
// call's arguments take as many bytes on the line as the script's JSON.
func (c *childSide) send(m any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(b.Bytes()); err != nil {
		return err
	}
	return c.w.Flush()
}

// end sends the done message, once: the script's end, or the CPU watch's
// when the script is stuck past its budget (whichever comes first).
func (c *childSide) end(m message) error {
	var err error
	c.endOnce.Do(func() {
		m.Type = "done"
		err = c.send(m)
	})
	return err
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

// interrupt stops the script at its next instruction; the first reason
// is the one its end names.
func (c *childSide) interrupt(why any) {
	c.vmMu.Lock()
	defer c.vmMu.Unlock()
	if c.why == nil {
		c.why = why
	}
	if c.vm != nil {
		c.vm.Interrupt(why)
	}
}

// reason is why the script was interrupted, nil when it was not.
func (c *childSide) reason() any {
	c.vmMu.Lock()
	defer c.vmMu.Unlock()
	return c.why
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
	script = unfence(script)
	env, err := newEnv(c, vm, fns, lim)
	if err != nil {
		return message{Error: err.Error()}
	}
	env.src = script
	prog, err := goja.Compile("script.js", scriptStart+script+"\n})", false)
	if err != nil {
		return message{Error: syntaxText(err), Line: lineOf(err.Error())}
	}
	stopWatch := c.watchCPU(lim.CPU())
	defer stopWatch()
	// The clock runs until the script's value (or what it threw) is
	// written down: a getter or a toJSON that loops while it is serialized
	// is the script computing too.
	c.clock.resume()
	m := env.settle(prog)
	c.clock.pause()
	if stop, ok := ended(c.reason()); ok {
		if m.Limit == stop.Limit {
			stop.Line = m.Line // where the interrupt found it
		}
		return stop
	}
	return m
}

// jsEnv is what a script sees besides the language: tools and console,
// and the built-ins the child uses, taken before the script can replace
// them.
type jsEnv struct {
	c         *childSide
	vm        *goja.Runtime
	lim       Limits
	stringify goja.Callable
	parse     goja.Callable
	toString  goja.Callable // String
	stackOf   goja.Callable // a thrown value's stack, "" when it has none
	errorCtor goja.Value
	fns       []Function
	src       string // the script, for hint
	// unhandled are the rejected promises nothing has handled yet, in
	// the order they were rejected (the tracker keeps them).
	unhandled []*goja.Promise
}

func newEnv(c *childSide, vm *goja.Runtime, fns []Function, lim Limits) (*jsEnv, error) {
	jsonObj := vm.Get("JSON").ToObject(vm)
	env := &jsEnv{c: c, vm: vm, lim: lim, errorCtor: vm.Get("Error"), fns: fns}
	vm.SetPromiseRejectionTracker(env.track)
	env.stringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	env.parse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	env.toString, _ = goja.AssertFunction(vm.Get("String"))
	stackOf, err := vm.RunString(`(function (v) { try { const s = v.stack; return typeof s === "string" ? s : ""; } catch (e) { return ""; } })`)
	if err != nil {
		return nil, err
	}
	env.stackOf, _ = goja.AssertFunction(stackOf)
	// GoError is goja's, not the language's: nothing a script needs.
	if err := vm.GlobalObject().Delete("GoError"); err != nil {
		return nil, err
	}
	if err := vm.Set("console", env.console()); err != nil {
		return nil, err
	}
	if err := vm.Set("tools", env.tools(fns)); err != nil {
		return nil, err
	}
	return env, nil
}

// settle runs the script to its end and writes down its value, or what
// ended it.
func (e *jsEnv) settle(prog *goja.Program) message {
	fnv, err := e.vm.RunProgram(prog)
	var pv goja.Value
	if err == nil {
		fn, _ := goja.AssertFunction(fnv)
		pv, err = fn(goja.Undefined())
	}
	if err != nil {
		return e.failure(err)
	}
	p, ok := pv.Export().(*goja.Promise)
	if !ok {
		return message{Error: "the script did not run as an async function"}
	}
	switch p.State() {
	case goja.PromiseStateRejected:
		return e.thrown(p.Result())
	case goja.PromiseStatePending:
		return message{Error: "the script is waiting for a promise that nothing will settle; scripts have no timers or events, so await only the tools' calls"}
	}
	if m, ok := e.unawaited(p); ok {
		return m
	}
	s, err := e.stringify(goja.Undefined(), p.Result())
	if err != nil {
		return e.failure(err)
	}
	if goja.IsUndefined(s) {
		return message{Value: json.RawMessage("null")}
	}
	text := s.String()
	if len(text) > e.lim.OutputBytes() {
		return message{Limit: LimitOutput}
	}
	return message{Value: json.RawMessage(text)}
}

// function is a native function named name: its toString shows that
// name, not the Go function's.
func (e *jsEnv) function(name string, f func(goja.FunctionCall) goja.Value) goja.Value {
	fn := e.vm.ToValue(f)
	_ = fn.(*goja.Object).DefineDataProperty("name", e.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return fn
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
		_ = con.Set(name, e.function(name, print))
	}
	return con
}

// show is how console.log prints a value: strings as they are, the rest
// as JSON (or as JavaScript would write it when JSON cannot). Only
// built-ins taken before the script ran are called, each of which turns
// a throw (or the interrupt) into an error, never a panic.
func (e *jsEnv) show(v goja.Value) string {
	obj, isObj := v.(*goja.Object)
	switch {
	case !isObj:
		if s, ok := v.Export().(string); ok {
			return s
		}
	case obj.ClassName() == "Error":
		return e.text(v)
	}
	if s, err := e.stringify(goja.Undefined(), v); err == nil && !goja.IsUndefined(s) {
		return s.String()
	}
	return e.text(v)
}

// text is String(v), or a placeholder when that throws.
func (e *jsEnv) text(v goja.Value) string {
	s, err := e.toString(goja.Undefined(), v)
	if err != nil {
		return "(a value that cannot be written as text)"
	}
	return s.String()
}

// keptOff are names a tools object answers undefined for, though no
// function has them: "then" (await takes an object with a then function
// for a promise) and "toJSON" (JSON.stringify would call it).
var keptOff = map[string]bool{"then": true, "toJSON": true}

// tools is the tools object: tools[server][tool](args) for each function.
// Each name is defined as an own property, so a server or tool called
// __proto__ is one like any other; none is called "then" (see keptOff;
// List says why). A server's object answers a name it has no function
// for with a function that throws why, not goja's "no member".
func (e *jsEnv) tools(fns []Function) *goja.Object {
	root := e.vm.NewObject()
	servers := map[string]*goja.Object{}
	for _, f := range fns {
		if f.Server == "then" || f.Tool == "then" {
			continue
		}
		s := servers[f.Server]
		if s == nil {
			s = e.vm.NewObject()
			servers[f.Server] = s
			_ = root.DefineDataProperty(f.Server, e.vm.ToValue(e.vm.NewProxy(s, &goja.ProxyTrapConfig{Get: e.member(f.Server)})), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}
		_ = s.DefineDataProperty(f.Tool, e.function(f.Tool, e.tool(f.Server, f.Tool)), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	return root
}

// member is the Get trap of server's object.
func (e *jsEnv) member(server string) func(*goja.Object, string, goja.Value) goja.Value {
	return func(target *goja.Object, name string, _ goja.Value) goja.Value {
		if v := target.Get(name); v != nil {
			return v
		}
		if keptOff[name] {
			return goja.Undefined()
		}
		path := Function{Server: server, Tool: name}.Path()
		return e.function(name, func(goja.FunctionCall) goja.Value {
			panic(e.vm.NewTypeError(path + " is not a function this script can call: its server has no tool of that name, or the settings deny it; list_functions lists the functions"))
		})
	}
}

// tool is one async tool function: it asks the parent and settles its
// promise with the answer. Its arguments count against the arguments
// limit before they are sent: a call past it ends the script unsent.
func (e *jsEnv) tool(server, tool string) func(goja.FunctionCall) goja.Value {
	name := Function{Server: server, Tool: tool}.Path()
	return func(call goja.FunctionCall) goja.Value {
		args := "{}"
		if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			obj, ok := a.(*goja.Object)
			if !ok || obj.ClassName() == "Array" {
				panic(e.vm.NewTypeError(name + " takes one object of arguments, such as {path: \"a.txt\"}"))
			}
			s, err := e.stringify(goja.Undefined(), a)
			if err != nil {
				panic(err)
			}
			if goja.IsUndefined(s) || !strings.HasPrefix(s.String(), "{") {
				panic(e.vm.NewTypeError(name + ": the arguments are not an object once written as JSON (a toJSON?)"))
			}
			args = s.String()
		}
		if e.c.reason() != nil { // the script is ending: send nothing more
			return goja.Undefined()
		}
		if e.c.argsSent += len(args); e.c.argsSent > e.lim.ArgsBytes() {
			e.c.interrupt(argsSpent{})
			return goja.Undefined()
		}
		p, resolve, reject := e.vm.NewPromise()
		e.c.clock.pause()
		reply, ok := e.c.call(server, tool, args)
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
				_ = reject(e.newError("the tool's result could not be read: " + err.Error()))
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

// callMessage is a call as the child writes it: its arguments are the
// script's JSON as it is.
type callMessage struct {
	Type string `json:"type"` // "call", first: the parent's read knows a call by it
	Call struct {
		Server string          `json:"server"`
		Tool   string          `json:"tool"`
		Args   json.RawMessage `json:"args"`
	} `json:"call"`
}

// call sends one tool call and waits for its answer; false when the parent
// is gone.
func (c *childSide) call(server, tool, args string) (message, bool) {
	m := callMessage{Type: "call"}
	m.Call.Server, m.Call.Tool, m.Call.Args = server, tool, json.RawMessage(args)
	if err := c.send(m); err != nil {
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
		if m, ok := ended(ie.Value()); ok {
			m.Line = lineOf(ie.String())
			return m
		}
		return message{Limit: "stopped"}
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

// thrown describes a value the script threw (or rejected with), with
// what to write instead when the mistake is a common one (hint).
func (e *jsEnv) thrown(v goja.Value) message {
	text := e.show(v)
	msg := "uncaught " + text
	if h := hint(e.src, e.fns, text); h != "" {
		msg += " (" + h + ")"
	}
	return message{Error: msg, Line: e.lineOf(v)}
}

// lineOf is the script's line a thrown value was made at, 0 when it
// has no stack.
func (e *jsEnv) lineOf(v goja.Value) int {
	if _, ok := v.(*goja.Object); ok {
		if st, err := e.stackOf(goja.Undefined(), v); err == nil {
			return lineOf(st.String())
		}
	}
	return 0
}

// track is the engine's promise rejection tracker: it keeps the rejected
// promises that have no handler yet.
func (e *jsEnv) track(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		e.unhandled = append(e.unhandled, p)
	case goja.PromiseRejectionHandle:
		e.unhandled = slices.DeleteFunc(e.unhandled, func(q *goja.Promise) bool { return q == p })
	}
}

// unawaited is the failure of a script that ended with a rejected
// promise nothing handled (other than its own, script): a call it did not
// await failed, and the script went on as if it had not — a file it meant
// to write is not written. As Node does, that ends the script with the
// error, at the line of the call.
func (e *jsEnv) unawaited(script *goja.Promise) (message, bool) {
	for _, p := range e.unhandled {
		if p == script || p.State() != goja.PromiseStateRejected {
			continue
		}
		v := p.Result()
		return message{
			Error: "a promise the script did not await was rejected: " + e.show(v) + " (await each call, or catch its error, so the script sees it fail)",
			Line:  e.lineOf(v),
		}, true
	}
	return message{}, false
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

// scriptStart is what the script is wrapped in before it is compiled:
// its first line's columns start after it.
const scriptStart = "(async function() {"

// syntaxPos is where goja's syntax error says it is: "Line 2:44 ".
var syntaxPos = regexp.MustCompile(`^Line (\d+):(\d+):? `)

// syntaxText is a syntax error as the script's author reads it: the
// engine's words without its own "Line 2:44" (the error names the line),
// with the column counted in the script as written.
func syntaxText(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "SyntaxError: ")
	s = strings.TrimPrefix(s, "script.js: ")
	if m := syntaxPos.FindStringSubmatch(s); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if line == 1 {
			col -= len(scriptStart)
		}
		s = strings.TrimPrefix(s, m[0])
		if col > 0 {
			s += fmt.Sprintf(" (column %d)", col)
		}
	}
	return "syntax error: " + s
}

// watchCPU interrupts the script once its computing time passes budget,
// and ends this process when it is still computing cpuGrace later (stuck
// in one built-in operation, which the interrupt does not stop).
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
				switch used := c.clock.used(); {
				case used > budget+cpuGrace:
					_ = c.end(message{Limit: LimitCPU})
					os.Exit(0)
				case used > budget:
					c.interrupt(cpuSpent{})
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
