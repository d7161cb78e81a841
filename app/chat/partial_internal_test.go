package chat

import (
	"testing"
	"time"
)

// An answer that ends before partialSaveEvery costs no write; a longer one
// writes the words so far, each write the whole text, and none after stop.
func TestPartialText(t *testing.T) {
	t.Run("an answer that ends sooner is not written", func(t *testing.T) {
		saved := make(chan string, 4)
		defer func(d time.Duration) { partialSaveEvery = d }(partialSaveEvery)
		partialSaveEvery = time.Hour
		p := &partialText{save: func(s string) { saved <- s }}
		p.add("Hello")
		p.stop()
		if len(saved) != 0 {
			t.Fatalf("wrote %q for an answer that ended before the first write was due", <-saved)
		}
	})
	t.Run("a longer one is written as it streams", func(t *testing.T) {
		saved := make(chan string, 4)
		defer func(d time.Duration) { partialSaveEvery = d }(partialSaveEvery)
		partialSaveEvery = time.Millisecond
		p := &partialText{save: func(s string) { saved <- s }}
		p.add("Hello")
		if got := <-saved; got != "Hello" {
			t.Fatalf("first write %q", got)
		}
		p.add(", ")
		p.add("world")
		if got := <-saved; got != "Hello, world" && got != "Hello, " {
			t.Fatalf("second write %q, want the whole text so far", got)
		}
		p.stop()
		p.add("!") // after stop: the final update is the answer's own
		p.stop()
		for len(saved) > 0 {
			if got := <-saved; got == "Hello, world!" {
				t.Fatalf("wrote %q after stop", got)
			}
		}
	})
}
