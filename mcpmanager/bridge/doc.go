// Package bridge is the local socket a running Switchboard shares its
// servers on, and the relay a 'switchboard serve' started by another app
// attaches with.
//
// When Switchboard runs (the window, or 'switchboard daemon'), it listens
// at Default(dataDir): a Unix socket in a directory only the user can
// enter (0700), or on Windows a named pipe whose access list admits only
// the user (PipeSDDL). Each side proves it holds the data dir's token
// (a 0600 file beside the socket) without sending it, so another user's
// process can neither attach nor pose as Switchboard; on Linux the
// listener also checks the peer's user id (SO_PEERCRED).
//
// It names that socket in DATADIR/run/address too, so a 'serve' whose
// environment gives another address (another $XDG_RUNTIME_DIR, or none:
// ssh, cron, sudo -u, a container) finds it from the data dir alone; the
// file, and the directory it names, are refused unless they are the
// user's own and private.
//
// A 'switchboard serve' first Dials: when Switchboard answers, serve
// starts no servers. On Unix, when its stdin and stdout are pipes or
// sockets (Stdio: what an app gives the 'serve' it starts), it hands
// them over the socket (HandOff, SCM_RIGHTS) and waits: the running
// Switchboard reads the app's messages from the app's own pipe and
// writes its answers to the other (Conn.Serve), so no process copies the
// bytes in between. Otherwise (Windows, a terminal) serve Relays its
// stdio to the socket byte for byte. Either way the running Switchboard
// serves the stream as one gateway session of its own (one per attached
// app), so N apps share one process per server, one tool list and one set
// of OAuth tokens, and a server's questions go to the app whose call
// caused them (the gateway's rule). When Switchboard goes away
// mid-session, HandOff and Relay return a *Lost: serve starts the servers
// itself, replays the app's initialize (dropping its second answer when
// the app had the first, Lost.Out) and serves the rest of the stream, so
// the app goes on.
//
// See Example.
package bridge
