package pins

import "sync/atomic"

// watch tells Version whether the file may have changed since it was last
// looked at, without a system call: Version is asked at every tool call
// and listing (router.VersionedGate), and a stat of the file there took
// about a tenth of the CPU 'switchboard serve' spends on a call. A
// goroutine reads the change events of the file's folder (startWatch, one
// per platform) and marks the store stale when one names the file. An
// event reaches it a moment after the write that caused it, so Version can
// lag another process's change by that moment; Screen always reads the
// file as it is.
type watch struct {
	stale atomic.Bool // an event named the file since Version last looked
	dead  atomic.Bool // the watch ended (its folder went, an error): Version looks every time
	stop  func()      // ends the watch's reading
	done  chan struct{}
}

// changed reports whether the file may have changed since the last call
// (always, once the watch has ended), and clears the mark: an event after
// this call marks it again.
func (w *watch) changed() bool {
	return w.dead.Load() || w.stale.Swap(false)
}

// close ends the watch and waits for its goroutine.
func (w *watch) close() {
	w.stop()
	<-w.done
}
