package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// configFlags registers --config FILE and --set ID=VALUE.
func configFlags(fs *flag.FlagSet, file *string, inputs kvFlag) {
	fs.StringVar(file, "config", "", "use this mcpServers file instead of the app config")
	fs.Var(inputs, "set", "value for a VS Code ${input:ID} placeholder, as ID=VALUE (repeatable)")
}

// SettleTimeout bounds how long CLI commands wait for servers to start.
var SettleTimeout = 90 * time.Second

// startServers runs the servers of --config FILE (or the app config) until
// each is ready or has failed, and returns the host to close.
func startServers(ctx context.Context, inv *Invocation, file string, inputs map[string]string, only ...string) (*host.Host, error) {
	return startServersWith(ctx, inv, file, inputs, func(h *host.Host) {
		// Forms servers send are asked on the terminal (never --yes here).
		h.Servers.HandleRequests(newTerminalRequests(inv.Stdin, inv.Stderr, false, isTTY(inv.Stdin)))
	}, only...)
}

// openHost opens the data directory's host (the same core the window
// runs), keeping servers' logs in memory for a --config file.
func openHost(inv *Invocation, file string) (*host.Host, error) {
	dir, err := inv.DataDir()
	if err != nil {
		return nil, err
	}
	if err := dir.Ensure(); err != nil {
		return nil, err
	}
	return host.Open(host.Options{Context: inv.Context(), Dir: dir, NoLogFiles: file != "", OnLocal: localSays(inv.Stderr)}), nil
}

// localSays prints on w (stderr) what the model on this computer is doing
// while a chat waits for it: loading, a crash and its restart.
func localSays(w io.Writer) func(host.LocalStatus) {
	var mu sync.Mutex
	last := ""
	return func(st host.LocalStatus) {
		mu.Lock()
		defer mu.Unlock()
		if st.State == last {
			return
		}
		last = st.State
		switch st.State {
		case "starting":
			threads := "threads"
			if st.Threads == 1 {
				threads = "thread"
			}
			fmt.Fprintf(w, "Loading %s on this computer (context %d tokens, %d %s)…\n", st.Model, st.Context, st.Threads, threads)
		case "restarting":
			fmt.Fprintf(w, "The model on this computer stopped (%s); starting it again. Its log: %s\n", st.Err, st.LogPath)
		case "failed":
			fmt.Fprintf(w, "The model on this computer could not start: %s\n", st.Err)
		}
	}
}

// readHost opens the data directory's host to read it: nothing is
// created, no server starts, logs stay in memory.
func readHost(inv *Invocation) (*host.Host, error) {
	dir, err := inv.DataDir()
	if err != nil {
		return nil, err
	}
	return host.Open(host.Options{Context: inv.Context(), Dir: dir, NoLogFiles: true}), nil
}

// startServersWith is startServers with a setup hook that runs on the new
// host before any server starts (to set a request handler). only, when
// not nil, names the servers to start.
func startServersWith(ctx context.Context, inv *Invocation, file string, inputs map[string]string, setup func(*host.Host), only ...string) (*host.Host, error) {
	h, err := launch(inv, file, inputs, setup, only...)
	if err != nil {
		return nil, err
	}
	settle(ctx, h)
	return h, nil
}

// settle waits until every server started is ready or has failed, at most
// SettleTimeout.
func settle(ctx context.Context, h *host.Host) {
	sctx, cancel := context.WithTimeout(ctx, SettleTimeout)
	defer cancel()
	h.Servers.Settle(sctx)
}

// launch starts the built-ins (workspace in settings.workspace.root, as in
// the window) and the servers of --config FILE or the app config, without
// waiting for them.
func launch(inv *Invocation, file string, inputs map[string]string, setup func(*host.Host), only ...string) (*host.Host, error) {
	servers, err := loadServers(inv, file, inputs)
	if err != nil {
		return nil, err
	}
	h, err := openHost(inv, file)
	if err != nil {
		return nil, err
	}
	if setup != nil {
		setup(h)
	}
	start(h, servers, only)
	return h, nil
}

// start runs the built-ins and servers (only those named in only, when it
// is not nil: a non-nil empty list starts none, an agent without servers).
func start(h *host.Host, servers []host.Server, only []string) {
	if only != nil {
		servers = slices.DeleteFunc(servers, func(s host.Server) bool { return !slices.Contains(only, s.Name) })
	}
	h.Servers.StartBuiltins()
	h.Servers.Run(servers)
}

func closeServers(h *host.Host) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = h.Close(ctx)
}
