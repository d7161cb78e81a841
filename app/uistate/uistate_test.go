package uistate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRoundTripAndDamage(t *testing.T) {
	cases := []struct {
		name    string
		initial string // "" means no file
		welcome bool   // Update sets WelcomeDone
		want    State
	}{
		{name: "missing file", welcome: true, want: State{WelcomeDone: true, Window: Window{X: 10, Y: 20, Width: 900, Height: 700}}},
		{name: "damaged file is replaced", initial: "{not json", welcome: true, want: State{WelcomeDone: true, Window: Window{X: 10, Y: 20, Width: 900, Height: 700}}},
		{name: "keeps other fields", initial: `{"welcomeDone":true}`, want: State{WelcomeDone: true, Window: Window{X: 10, Y: 20, Width: 900, Height: 700}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ui.json")
			if c.initial != "" {
				if err := os.WriteFile(path, []byte(c.initial), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := Update(path, func(s *State) {
				s.Window = Window{X: 10, Y: 20, Width: 900, Height: 700}
				if c.welcome {
					s.WelcomeDone = true
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestLoadDamagedSaysWhat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ui.json")
	if err := os.WriteFile(path, []byte("[1,2"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil {
		t.Fatal("a damaged ui.json loaded without error")
	}
	if e, ok := err.(*Error); !ok || e.Op != "parse" || e.Path != path {
		t.Fatalf("err = %#v, want a parse *Error naming the file", err)
	}
}

func TestUsable(t *testing.T) {
	for _, c := range []struct {
		w    Window
		want bool
	}{
		{Window{}, false},
		{Window{Width: 700, Height: 800}, false},
		{Window{Width: 720, Height: 480}, true},
		{Window{Width: 99999, Height: 800}, false},
	} {
		if got := c.w.Usable(720, 480); got != c.want {
			t.Errorf("%+v.Usable = %v, want %v", c.w, got, c.want)
		}
	}
}
