package codemode

import (
	"encoding/json"
	"strings"
	"testing"
)

// A script that returns nothing is told how to return its value; a value,
// a failure and printed lines are as they were.
func TestTextSaysWhenNothingWasReturned(t *testing.T) {
	for _, c := range []struct {
		name    string
		r       Result
		failure string
		want    string
	}{
		{"nothing returned", Result{}, "", noValue},
		{"null returned", Result{Value: json.RawMessage("null")}, "", noValue},
		{"printed, nothing returned", Result{Logs: []string{"hi"}}, "", "Printed:\nhi\nReturned:\n" + noValue},
		{"a value", Result{Value: json.RawMessage(`{"n":3}`)}, "", `{"n":3}`},
		{"zero is a value", Result{Value: json.RawMessage("0")}, "", "0"},
		{"a failure wins", Result{}, "Line 2: boom", "Line 2: boom"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.r, c.failure); got != c.want {
				t.Fatalf("Text = %q, want %q", got, c.want)
			}
			if c.want == noValue && !strings.Contains(noValue, "return") {
				t.Fatal("the note must say to return")
			}
		})
	}
}
