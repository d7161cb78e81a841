package host

import (
	"context"
	"os"
	"testing"
)

// TestUIStateRemembers: the welcome page done and the window's place
// survive a new host of the data dir; each change keeps the other, a
// window too small is not offered, and a damaged ui.json is replaced.
func TestUIStateRemembers(t *testing.T) {
	h := open(t)
	if err := os.WriteFile(h.Dir().UIState(), []byte("{damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	if done, err := h.UIState.WelcomeDone(); done || err == nil {
		t.Fatalf("a damaged ui.json: WelcomeDone() = %v, %v; want false and the error", done, err)
	}
	if err := h.UIState.FinishWelcome(); err != nil {
		t.Fatal(err)
	}
	want := WindowGeometry{X: 10, Y: 20, Width: 900, Height: 700}
	if err := h.UIState.RememberWindow(want); err != nil {
		t.Fatal(err)
	}
	again := Open(Options{Dir: h.Dir()})
	t.Cleanup(func() { again.Close(context.Background()) })
	if done, err := again.UIState.WelcomeDone(); !done || err != nil {
		t.Fatalf("WelcomeDone() = %v, %v after FinishWelcome", done, err)
	}
	if w, ok, err := again.UIState.Window(720, 480); w != want || !ok || err != nil {
		t.Fatalf("Window(720, 480) = %+v, %v, %v; want %+v", w, ok, err, want)
	}
	if _, ok, _ := again.UIState.Window(1000, 480); ok {
		t.Fatal("a window narrower than the minimum was offered")
	}
}
