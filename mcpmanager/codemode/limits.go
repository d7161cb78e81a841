package codemode

import (
	"fmt"
	"time"
)

// Limits bound one script. A zero field takes its default (Default…).
// The JSON names are the keys of the "codeMode" settings object, which
// the sentence of each limit names.
type Limits struct {
	// WallSeconds bounds the script's time from start to end, tool calls
	// included.
	WallSeconds int `json:"wallSeconds,omitempty"`
	// CPUSeconds bounds the time the script itself computes, tool calls
	// not counted: an endless loop ends here. It is measured as elapsed
	// time while the script computes, not as the processor's time, so a
	// busy machine spends it sooner. The engine checks it between the
	// script's instructions; one long built-in operation (a JSON.stringify
	// of a value nested 100,000 deep, a sort of millions of items) is not
	// interrupted, so a script still computing a second (cpuGrace) past
	// its budget has its process end itself, with this limit's error.
	CPUSeconds int `json:"cpuSeconds,omitempty"`
	// MemoryMB bounds the script process's memory; the operating system
	// enforces it (setrlimit on Unix, a Job Object on Windows).
	MemoryMB int `json:"memoryMB,omitempty"`
	// MaxCalls bounds the tool calls one script makes.
	MaxCalls int `json:"maxCalls,omitempty"`
	// MaxOutputKB bounds what the script returns and prints together.
	MaxOutputKB int `json:"maxOutputKB,omitempty"`
	// MaxArgsKB bounds the arguments (as JSON) the script sends its tool
	// calls together: each call is stored in the chat's history, so a
	// script that sends megabytes in a loop would fill it.
	MaxArgsKB int `json:"maxArgsKB,omitempty"`
}

// SettingsPath is where the limits' settings are, as a LimitError's
// sentence names them.
var SettingsPath = "settings.chat.codeMode"

// Defaults of Limits.
var (
	DefaultWallSeconds = 120
	DefaultCPUSeconds  = 10
	DefaultMemoryMB    = 256
	DefaultMaxCalls    = 1000
	DefaultMaxOutputKB = 8 << 10 // 8 MB
	DefaultMaxArgsKB   = 8 << 10 // 8 MB
)

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.WallSeconds, DefaultWallSeconds)
	def(&l.CPUSeconds, DefaultCPUSeconds)
	def(&l.MemoryMB, DefaultMemoryMB)
	def(&l.MaxCalls, DefaultMaxCalls)
	def(&l.MaxOutputKB, DefaultMaxOutputKB)
	def(&l.MaxArgsKB, DefaultMaxArgsKB)
	return l
}

// Wall is the wall-time limit.
func (l Limits) Wall() time.Duration { return time.Duration(l.WallSeconds) * time.Second }

// CPU is the CPU-time budget.
func (l Limits) CPU() time.Duration { return time.Duration(l.CPUSeconds) * time.Second }

// OutputBytes is the output limit in bytes.
func (l Limits) OutputBytes() int { return l.MaxOutputKB << 10 }

// ArgsBytes is the tool calls' arguments limit in bytes.
func (l Limits) ArgsBytes() int { return l.MaxArgsKB << 10 }

// The limits, as LimitError.Limit names them.
const (
	LimitWall   = "wall time"
	LimitCPU    = "CPU time"
	LimitMemory = "memory"
	LimitCalls  = "tool calls"
	LimitOutput = "output size"
	LimitArgs   = "argument size"
)

// LimitError is a script ended by one of its limits.
type LimitError struct {
	Limit   string // one of the Limit… constants
	Setting string // the codeMode setting that raises it
	Value   string // the limit, with its unit
	// Line is the script's line it was running when the limit stopped
	// it, when known (the CPU time's, which interrupts the script).
	Line int
}

func (e *LimitError) Error() string {
	what := map[string]string{
		LimitWall:   "ran longer than",
		LimitCPU:    "computed for longer than",
		LimitMemory: "used more memory than",
		LimitCalls:  "made more tool calls than",
		LimitOutput: "returned and printed more than",
		LimitArgs:   "sent its tool calls more arguments than",
	}[e.Limit]
	s := fmt.Sprintf("The script was stopped: it %s its %s limit of %s (setting %s.%s).", what, e.Limit, e.Value, SettingsPath, e.Setting)
	if e.Line > 0 {
		s += fmt.Sprintf(" It was running line %d.", e.Line)
	}
	return s
}

func limitError(limit string, l Limits) *LimitError {
	switch limit {
	case LimitWall:
		return &LimitError{Limit: limit, Setting: "wallSeconds", Value: fmt.Sprintf("%d s", l.WallSeconds)}
	case LimitCPU:
		return &LimitError{Limit: limit, Setting: "cpuSeconds", Value: fmt.Sprintf("%d s", l.CPUSeconds)}
	case LimitMemory:
		return &LimitError{Limit: limit, Setting: "memoryMB", Value: fmt.Sprintf("%d MB", l.MemoryMB)}
	case LimitCalls:
		return &LimitError{Limit: limit, Setting: "maxCalls", Value: fmt.Sprintf("%d calls", l.MaxCalls)}
	case LimitArgs:
		return &LimitError{Limit: limit, Setting: "maxArgsKB", Value: fmt.Sprintf("%d KB", l.MaxArgsKB)}
	}
	return &LimitError{Limit: LimitOutput, Setting: "maxOutputKB", Value: fmt.Sprintf("%d KB", l.MaxOutputKB)}
}

// ScriptError is a script that threw, or did not compile.
type ScriptError struct {
	Line    int // where, when known (1 is the script's first line)
	Message string
}

func (e *ScriptError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("The script failed at line %d: %s", e.Line, e.Message)
	}
	return "The script failed: " + e.Message
}

// Error is the script's process failing: it did not start, or ended
// unexpectedly.
type Error struct {
	Op   string
	Path string
	Err  error
}

func (e *Error) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("code mode: %s %s: %v", e.Op, e.Path, e.Err)
	}
	return fmt.Sprintf("code mode: %s: %v", e.Op, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }
