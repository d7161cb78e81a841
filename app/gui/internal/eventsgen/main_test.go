package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/gui"
)

// genFile is the generated file, from this package's directory.
var genFile = filepath.Join("..", "..", "..", "..", "frontend", "src", "events.gen.ts")

func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := render(gui.EventList)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run 'go generate ./app/gui'\nwant:\n%s", genFile, want)
	}
}

// Every payload must be in models.ts, which holds only what bound methods
// return: gui.EventTypes is how events' payloads get there.
func TestEveryPayloadIsBound(t *testing.T) {
	bound := map[reflect.Type]bool{}
	et := reflect.TypeFor[gui.EventTypes]()
	for i := range et.NumField() {
		bound[et.Field(i).Type] = true
	}
	for _, e := range gui.EventList {
		if e.Payload != nil && !bound[reflect.TypeOf(e.Payload)] {
			t.Errorf("%s carries %T, which is not a field of gui.EventTypes: add it there so Wails generates it", e.Const, e.Payload)
		}
	}
}

func TestRender(t *testing.T) {
	for _, tt := range []struct {
		name    string
		events  []gui.EventInfo
		want    []string
		wantErr string
	}{
		{
			name:   "a constant and a payload per event",
			events: []gui.EventInfo{{Const: "EventServerStatus", Name: "server:status", Payload: gui.ServerView{}}},
			want:   []string{"export const EventServerStatus = \"server:status\";\n", "  [EventServerStatus]: gui.ServerView;\n"},
		},
		{
			name:   "no payload is null",
			events: []gui.EventInfo{{Const: "EventConfigChanged", Name: "config:changed"}},
			want:   []string{"  [EventConfigChanged]: null;\n"},
		},
		{
			name:    "payloads are named structs",
			events:  []gui.EventInfo{{Const: "EventX", Name: "x", Payload: map[string]string{}}},
			wantErr: "EventX: the payload map[string]string is not a named struct",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := render(tt.events)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("output lacks %q:\n%s", w, b)
				}
			}
		})
	}
}
