package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

func serveCmd() *Command {
	var file, httpAddr, client string
	var anyHost, local bool
	var code codeFlag
	inputs := kvFlag{}
	return &Command{
		Name:    "serve",
		Summary: "serve every managed tool as one MCP server over stdio (or Streamable HTTP with --http)",
		Flags: func(fs *flag.FlagSet) {
			configFlags(fs, &file, inputs)
			fs.StringVar(&httpAddr, "http", "", "serve Streamable HTTP at ADDR (e.g. 127.0.0.1:8765) instead of stdio, with servers of its own (not a running Switchboard's); every request needs the bearer token it prints, or the one in $SWITCHBOARD_SERVE_TOKEN (at least 16 characters), so that an app's entry outlives a restart; while it runs, the URL and token are also in DATADIR/run/serve-http-PORT.json, readable by you only")
			fs.BoolVar(&anyHost, "listen-any", false, "with --http: allow an address that is not loopback (other machines could reach it)")
			clientFlag(fs, &client)
			fs.BoolVar(&local, "local", false, "run the servers in this process even when a running Switchboard shares its own (see 'switchboard daemon')")
			fs.Var(&code, "code", "code mode: offer list_functions, describe_function and run_script instead of the tools (--code=both: besides them; --code=false: the tools only); each call a script makes is decided by your approval settings, an \"ask\" goes to the client as an elicitation or is refused. Without it, settings.serve.tools chooses (Settings → Chat → Code mode), for the running Switchboard's attached apps too; with it, serve runs its own servers")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			if httpAddr != "" {
				if err := host.CheckServeAddr(httpAddr, anyHost); err != nil {
					return &UsageError{Cmd: inv.Path, Msg: err.Error()}
				}
			}
			in, out := inv.Stdin, inv.Stdout
			if httpAddr == "" && file == "" && len(inputs) == 0 && !local && code == "" {
				// A running Switchboard (the window, 'switchboard daemon')
				// shares its servers: it serves this app's stdio instead of
				// this process starting them.
				// It offers them in the code mode of settings.serve.
				var done bool
				var err error
				if in, out, done, err = attachRunning(ctx, inv, client); done {
					return err
				}
			}
			only, err := servingClient(inv, client)
			if err != nil {
				return err
			}
			// Servers' sampling and elicitation go to the client whose call
			// caused them when it takes them; otherwise they are declined
			// (stdin is the MCP stream, or nobody's). One the gateway cannot
			// tie to a single call, or past its cap, fails with its error.
			// Serve at once: tools appear as their servers become ready.
			h, err := launch(inv, file, inputs, func(h *host.Host) {
				h.Serve.Relay(servedRequests(inv.Stdin, inv.Stderr))
				h.Serve.HoldServers()
			}, only...)
			if err != nil {
				return err
			}
			defer closeServers(h)
			warn := func(msg string) { fmt.Fprintf(inv.Stderr, "switchboard serve: %s\n", termSafe(msg)) }
			if file == "" {
				// config.json's servers follow it, as in the window: a
				// server switched off there stops here too.
				h.Serve.Follow(client, func(err error) { warn("config.json: " + err.Error()) })
			}
			req := host.ServeRequest{Client: client, Code: string(code), SettleWait: SettleTimeout, Warn: warn}
			if httpAddr == "" {
				return h.Serve.Stdio(ctx, in, out, req)
			}
			// The token comes from SWITCHBOARD_SERVE_TOKEN or is generated
			// and printed once.
			req.Addr, req.AnyHost = httpAddr, anyHost
			req.Token = cmp.Or(os.Getenv("SWITCHBOARD_SERVE_TOKEN"), host.NewServeToken())
			if n := len(strings.TrimSpace(req.Token)); n < MinServeToken || n != len(req.Token) {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("SWITCHBOARD_SERVE_TOKEN must be at least %d characters, with no spaces at its ends (it has %d): anything on this computer that guesses it can call your tools; unset it for a random one", MinServeToken, len(req.Token))}
			}
			var forget func()
			req.Listening = func(a net.Addr) {
				fmt.Fprintf(inv.Stderr, "switchboard serve: Streamable HTTP at http://%s/mcp\nswitchboard serve: send  Authorization: Bearer %s\n", a, req.Token)
				// Kept for later: started from a launcher, nobody saw that.
				kept, rm, kerr := keepHTTPAddress(h.Dir().String(), a, req.Token)
				if kerr != nil {
					warn(fmt.Sprintf("the URL and token are not kept for later: %v", kerr))
					return
				}
				forget = rm
				fmt.Fprintf(inv.Stderr, "switchboard serve: both are in %s (readable by you only) while this runs\n", termSafe(kept))
			}
			err = h.Serve.HTTP(ctx, req)
			if forget != nil {
				forget()
			}
			return err
		},
	}
}

// keepHTTPAddress writes where 'serve --http' listens and its token to
// DATADIR/run/serve-http-PORT.json (0600, in the 0700 directory the
// running Switchboard keeps its own token in), so that a person who did
// not see serve's stderr (started from a launcher, a service) can read
// them; forget removes the file when serve ends.
func keepHTTPAddress(dataDir string, addr net.Addr, token string) (file string, forget func(), err error) {
	dir := filepath.Join(dataDir, "run")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, err
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return "", nil, fmt.Errorf("%s is not a directory only you can enter; remove it", dir)
	}
	port := "0"
	if ta, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
	}
	file = filepath.Join(dir, "serve-http-"+port+".json")
	body, _ := json.MarshalIndent(map[string]any{"url": "http://" + addr.String() + "/mcp", "token": token,
		"header": "Authorization: Bearer " + token, "pid": os.Getpid()}, "", "  ")
	tmp, err := os.CreateTemp(dir, ".serve-http-*")
	if err != nil {
		return "", nil, err
	}
	_, err = tmp.Write(append(body, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file) // CreateTemp made it 0600
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", nil, err
	}
	return file, func() { _ = os.Remove(file) }, nil
}

// MinServeToken is the shortest SWITCHBOARD_SERVE_TOKEN serve --http
// takes: the token is all that keeps other programs on this computer from
// calling the user's tools.
const MinServeToken = 16

// codeFlag is serve's --code: "" when not given, else the tool mode it
// asks for: host.ToolsCode (--code), ToolsBoth (--code=both) or
// ToolsDirect (--code=false).
type codeFlag string

func (c *codeFlag) String() string   { return string(*c) }
func (c *codeFlag) IsBoolFlag() bool { return true }
func (c *codeFlag) Set(v string) error {
	switch v {
	case "true", host.ToolsCode:
		*c = host.ToolsCode
	case host.ToolsBoth:
		*c = host.ToolsBoth
	case "false", "off", host.ToolsDirect:
		*c = host.ToolsDirect
	default:
		return fmt.Errorf("--code=%s: write --code (code mode instead of the tools), --code=both (besides them) or --code=false (the tools only)", v)
	}
	return nil
}
