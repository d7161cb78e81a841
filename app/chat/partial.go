package chat

import (
	"strings"
	"sync"
	"time"
)

// partialSaveEvery is how long an answer streams before the words so far
// are written to history, and then how often; a variable for tests. An
// answer that ends sooner (most steps with a fast model) costs no write
// beyond its message's two, so the durable writes a step takes do not grow.
var partialSaveEvery = time.Second

// partialText keeps the text of an answer being streamed durable as it
// arrives, so a crash mid-answer keeps the words the user saw instead of
// an empty unfinished message. Text comes from the provider's goroutine
// (add); the writes run on a timer's, one at a time; stop waits for the
// write in flight, so the answer's final update is always the last.
type partialText struct {
	save func(text string) // writes the text so far (errors: the final update reports them)

	mu      sync.Mutex
	text    strings.Builder
	timer   *time.Timer
	stopped bool
	writing sync.WaitGroup
}

// add appends s and, when no write is due yet, schedules one.
func (p *partialText) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.text.WriteString(s)
	if p.timer == nil && !p.stopped {
		p.writing.Add(1)
		p.timer = time.AfterFunc(partialSaveEvery, p.flush)
	}
}

func (p *partialText) flush() {
	defer p.writing.Done()
	p.mu.Lock()
	text, stopped := p.text.String(), p.stopped
	p.timer = nil
	p.mu.Unlock()
	if !stopped {
		p.save(text)
	}
}

// stop cancels a write not yet begun and waits for one in flight.
func (p *partialText) stop() {
	p.mu.Lock()
	p.stopped = true
	if p.timer != nil && p.timer.Stop() {
		p.writing.Done()
	}
	p.timer = nil
	p.mu.Unlock()
	p.writing.Wait()
}
