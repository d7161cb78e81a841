package gui

import (
	"context"
	"errors"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// ClientsPage is the Connected apps page: the other MCP apps on this
// computer (Claude Desktop, Claude Code, Cursor, VS Code, …), each
// connected to Switchboard after a preview of the change to its file,
// disconnected, repaired, and given the servers it sees; and the apps
// attached to this running Switchboard now. The logic is h.Clients' and
// h.Shared's; these methods only call them.
type ClientsPage struct{ *core }

// clientsTimeout bounds reading the apps' files and a connect (which may
// move servers into Switchboard).
const clientsTimeout = 30 * time.Second

// ClientAppsView is the page: every known app, found or not, and what
// the picker of an app's servers offers.
type ClientAppsView struct {
	Apps []host.ClientApp `json:"apps"`
	// Servers are Switchboard's servers an app can be given.
	Servers []string `json:"servers"`
	// Builtins are the built-in servers, which every app sees.
	Builtins []string `json:"builtins"`
	// Sharing: this window shares its servers with the apps' serve
	// (Address is where); otherwise each app's serve runs them itself.
	Sharing bool   `json:"sharing"`
	Address string `json:"address,omitempty"`
}

// ClientApps lists the apps on this computer and those not installed.
// The workspace is the window's project folder: an app's files there
// (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, …) are listed with its
// user files, as the CLI lists those of its current directory.
func (a *ClientsPage) ClientApps() (ClientAppsView, error) {
	ctx, cancel := context.WithTimeout(a.bg(), clientsTimeout)
	defer cancel()
	apps, err := a.h.Clients.List(ctx, a.h.Workspace.Root())
	if err != nil {
		return ClientAppsView{}, err
	}
	v := ClientAppsView{Apps: apps, Servers: []string{}, Builtins: host.BuiltinNames()}
	for _, s := range a.h.Servers.List() {
		v.Servers = append(v.Servers, s.Name)
	}
	v.Address, v.Sharing = a.h.Shared.Listening()
	return v, nil
}

// ConnectRequest is a connect (or its preview) from the page.
type ConnectRequest struct {
	Name string `json:"name"`
	// Move also moves the app's own servers into Switchboard.
	Move bool `json:"move"`
	// EnvDiffers answers a preview's EnvDiffers: "keep" or "import".
	EnvDiffers string `json:"envDiffers"`
}

// ClientPreview is a change to an app's file, or why there is none yet.
type ClientPreview struct {
	Change host.ClientChange `json:"change"`
	// EnvDiffers names the servers to move that Switchboard has with
	// another environment: the page asks keep or import.
	EnvDiffers []string `json:"envDiffers"`
}

func (r ConnectRequest) host(dry bool) host.ClientConnect {
	return host.ClientConnect{Name: r.Name, Move: r.Move, EnvDiffers: r.EnvDiffers, DryRun: dry}
}

// clientPreview turns a ClientEnvError into the question the page asks.
func clientPreview(ch host.ClientChange, err error) (ClientPreview, error) {
	if envErr, ok := errors.AsType[*host.ClientEnvError](err); ok {
		return ClientPreview{Change: ch, EnvDiffers: envErr.Servers}, nil
	}
	return ClientPreview{Change: ch, EnvDiffers: []string{}}, err
}

// PreviewConnect is the exact change Connect would make to the app's
// file (and the servers it would move), written nowhere.
func (a *ClientsPage) PreviewConnect(r ConnectRequest) (ClientPreview, error) {
	ctx, cancel := context.WithTimeout(a.bg(), clientsTimeout)
	defer cancel()
	return clientPreview(a.h.Clients.Connect(ctx, r.host(true)))
}

// ConnectClient adds Switchboard's entry to the app's file (repairs one
// that runs another program), moving its servers here with Move.
func (a *ClientsPage) ConnectClient(r ConnectRequest) (ClientPreview, error) {
	ctx, cancel := context.WithTimeout(a.bg(), clientsTimeout)
	defer cancel()
	p, err := clientPreview(a.h.Clients.Connect(ctx, r.host(false)))
	if err == nil && len(p.EnvDiffers) == 0 {
		a.emitEvent(EventConfigChanged, nil) // moved servers show on the other pages
	}
	return p, err
}

// PreviewDisconnect is the change Disconnect would make, written nowhere.
func (a *ClientsPage) PreviewDisconnect(name string, withSecrets bool) (host.ClientChange, error) {
	ctx, cancel := context.WithTimeout(a.bg(), clientsTimeout)
	defer cancel()
	return a.h.Clients.Disconnect(ctx, host.ClientDisconnect{Name: name, WithSecrets: withSecrets, DryRun: true})
}

// DisconnectClient takes Switchboard's entry out of the app's file and
// returns the servers moved from it (their secrets only withSecrets).
func (a *ClientsPage) DisconnectClient(name string, withSecrets bool) (host.ClientChange, error) {
	ctx, cancel := context.WithTimeout(a.bg(), clientsTimeout)
	defer cancel()
	return a.h.Clients.Disconnect(ctx, host.ClientDisconnect{Name: name, WithSecrets: withSecrets})
}

// SetClientServers chooses the servers an app sees (none: all of them).
func (a *ClientsPage) SetClientServers(name string, servers []string) error {
	return a.h.Clients.SetServers(name, servers)
}
