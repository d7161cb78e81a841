package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// attachRunning hands the app's stdio to the Switchboard running for
// this data dir (or relays it there), when one answers. done is true when
// the app's session ended there (err says how it ended badly).
// Otherwise serve runs the servers itself on in and out: the app's own
// stdio when nothing answered, or, when the running Switchboard went away
// mid-session, the app's stream resumed (its initialize replayed, the
// replay's answer dropped when the app had one before).
func attachRunning(ctx context.Context, inv *Invocation, client string) (in io.Reader, out io.Writer, done bool, err error) {
	h, err := readHost(inv)
	if err != nil {
		return inv.Stdin, inv.Stdout, false, nil
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.Close(cctx)
	}()
	d, err := h.Shared.Attach(ctx, host.AttachRequest{In: inv.Stdin, Out: inv.Stdout, Client: client, OnAttached: func(pid int) {
		fmt.Fprintf(inv.Stderr, "switchboard serve: using the servers of the running Switchboard (pid %d)\n", pid)
	}})
	switch {
	case errors.Is(err, host.ErrNotShared):
		// Said, so that a user who runs Switchboard (the window, the
		// daemon) learns why this app starts servers of its own: most
		// often another data dir (--data-dir, SWITCHBOARD_DATA_DIR).
		why := ""
		if refused := host.AddressRefused(err); refused != "" {
			why = " (" + refused + ")"
		}
		fmt.Fprintf(inv.Stderr, "switchboard serve: no running Switchboard for %s; starting the servers here%s\n", termSafe(h.Dir().String()), termSafe(why))
		return inv.Stdin, inv.Stdout, false, nil
	case err != nil && d.PID == 0:
		fmt.Fprintf(inv.Stderr, "switchboard serve: not using the running Switchboard (%s); starting the servers here\n", termSafe(err.Error()))
		return inv.Stdin, inv.Stdout, false, nil
	case err != nil:
		return nil, nil, true, err
	case d.Lost == nil:
		return nil, nil, true, nil
	}
	fmt.Fprintf(inv.Stderr, "switchboard serve: the running Switchboard (pid %d) went away (%s); starting the servers here\n", d.PID, termSafe(d.Lost.Error()))
	return d.Resume, d.Out, false, nil
}
