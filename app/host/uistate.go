package host

import "github.com/switchboard-app/switchboard/app/uistate"

// UIState is what the window remembers that is not configuration
// (ui.json in the data directory, app/uistate): whether the first-run
// welcome page was done, and where the window was. A damaged ui.json is
// replaced by the next change, never fatal; the CLI does not use it.
type UIState struct{ h *Host }

// WindowGeometry is the window's remembered size and position
// (uistate.Window).
type WindowGeometry struct {
	X, Y, Width, Height int
	// Maximised: the window was maximised (X … Height are where it was
	// before, when known).
	Maximised bool
}

// WelcomeDone says whether the welcome page was finished or skipped. A
// ui.json that cannot be read says not done, with the error.
func (u *UIState) WelcomeDone() (bool, error) {
	st, err := uistate.Load(u.h.dir.UIState())
	return st.WelcomeDone, err
}

// FinishWelcome records that the welcome page was done or skipped: it is
// never shown again.
func (u *UIState) FinishWelcome() error {
	return uistate.Update(u.h.dir.UIState(), func(s *uistate.State) { s.WelcomeDone = true })
}

// Window returns the window's remembered place; ok is false when there is
// none, or it is smaller than minWidth × minHeight (or implausibly large),
// or ui.json cannot be read (err says why).
func (u *UIState) Window(minWidth, minHeight int) (w WindowGeometry, ok bool, err error) {
	st, err := uistate.Load(u.h.dir.UIState())
	if err != nil {
		return w, false, err
	}
	return WindowGeometry(st.Window), st.Window.Usable(minWidth, minHeight), nil
}

// RememberWindow saves the window's place, keeping the rest of ui.json.
func (u *UIState) RememberWindow(w WindowGeometry) error {
	return uistate.Update(u.h.dir.UIState(), func(s *uistate.State) { s.Window = uistate.Window(w) })
}
