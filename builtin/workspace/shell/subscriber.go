package shell

import "sync"

// subscriber delivers a session's raw output to one reader. Output waiting
// for a slow reader is coalesced into one slice (up to SubscriberBytes,
// beyond which the oldest is dropped), so the shell never waits for it.
type subscriber struct {
	mu      sync.Mutex
	pending []byte
	notify  chan struct{} // capacity 1: "pending has bytes"
	done    chan struct{}
	out     chan []byte
	once    sync.Once
}

func newSubscriber() *subscriber {
	return &subscriber{notify: make(chan struct{}, 1), done: make(chan struct{}), out: make(chan []byte)}
}

func (sub *subscriber) push(b []byte) {
	sub.mu.Lock()
	sub.pending = append(sub.pending, b...)
	if over := len(sub.pending) - SubscriberBytes; over > 0 {
		sub.pending = append([]byte(nil), sub.pending[over:]...)
	}
	sub.mu.Unlock()
	select {
	case sub.notify <- struct{}{}:
	default:
	}
}

// loop hands pending output to the reader until stop; it closes out.
func (sub *subscriber) loop() {
	defer close(sub.out)
	for {
		select {
		case <-sub.notify:
		case <-sub.done:
			return
		}
		sub.mu.Lock()
		b := sub.pending
		sub.pending = nil
		sub.mu.Unlock()
		if len(b) == 0 {
			continue
		}
		select {
		case sub.out <- b:
		case <-sub.done:
			return
		}
	}
}

func (sub *subscriber) stop() { sub.once.Do(func() { close(sub.done) }) }
