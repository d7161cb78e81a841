package host

import (
	"context"
	"io"
	"log"
	"net"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager"
)

// RequestHandler answers what servers ask of the user during their calls:
// a completion from the model (sampling) and a form or an address to open
// (elicitation). Servers ask at any time, several at once: an
// implementation must be safe for concurrent use. The door gives its own
// (Servers.HandleRequests, Chats.Wire, Serve.Relay).
type RequestHandler interface {
	CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

var _ mcpmanager.RequestHandler = RequestHandler(nil)

// The request structs of the host's methods that take more than three
// inputs (TestHostMethodsTakeRequestStructs): each door names every field,
// so adding one changes no caller.

// AppCall is an MCP App's tools/call (MCPApps.Call).
type AppCall struct {
	ChatID, Server, Tool string
	Args                 map[string]any
	// Ask shows the approval card in the chat; Always says whether the
	// user allowed the tool for the chat (nil: the engine Chats.Wire made).
	Ask    Approver
	Always Always
	// Agent is the chat's agent, whose policies apply over the global
	// ones (nil: none).
	Agent *ChatAgent
}

// ModelContext is what an app (its ui:// URI) of a server asks the model
// to know in a chat (MCPApps.SetModelContext); empty Text removes it.
type ModelContext struct {
	ChatID, Server, App, Text string
}

// Stdio is where a built-in served alone runs (Builtin.ServeStdio): its
// data in Root ("" for its default in Dir), the MCP stream on In and Out,
// the stream's errors to Log.
type Stdio struct {
	Dir  datadir.Dir
	Root string
	In   io.Reader
	Out  io.Writer
	Log  *log.Logger
}

// LongChats is Settings → Chat → Long chats (Settings.SetLongChats):
// where a chat is summarised, how much one tool result may take, how much
// of a capped result is kept, and the per-tool budgets and per-model
// context windows, one per line.
type LongChats struct {
	CompactAt, ResultShare, KeepMB int
	Budgets, Windows               []string
}

// RegistryPick names a server of the MCP Registry at URL ("" for the
// setting), which of its packages or remotes to use (Option, 0 the
// first) and the values it asks for (MCPRegistry.Preview and Add).
// EntryName is the name to add it under ("": the last part of its name;
// an mcpb package installs under its bundle's name). Bundle are the
// answers to an mcpb package's user_config, each key one value or several
// (the window's form; the CLI's Values serve as one each).
type RegistryPick struct {
	URL, Name string
	Option    int
	Values    map[string]string
	EntryName string
	Bundle    map[string][]string
}

// AddSkill is a skill to preview or add (LocalSkills.Preview, Add): a
// folder or .zip at Path, or a .zip's bytes (Zip, named ZipName) as the
// window hands over a file the user chose. Replace lets Add take the place
// of a skill of the same name in Switchboard's skills folder.
type AddSkill struct {
	Path    string
	ZipName string
	Zip     []byte
	Replace bool
}

// AttachRequest is a 'serve' attaching to the running Switchboard
// (Shared.Attach): the app's stream on In and Out, and the app's name
// from 'serve --client NAME' ("": its initialize clientInfo.name).
// OnAttached, when set, is told the running Switchboard's process id once
// the handshake succeeded.
type AttachRequest struct {
	In         io.Reader
	Out        io.Writer
	Client     string
	OnAttached func(pid int)
}

// ClientConnect is one connect of an app to Switchboard (Clients.Connect).
type ClientConnect struct {
	Name string // the app's short name: "claude-code"
	// Project writes the app's file in this folder (.mcp.json,
	// .vscode/mcp.json) instead of its user file.
	Project string
	// Move moves the app's own servers into Switchboard and out of its file.
	Move bool
	// Servers are the servers the app sees (nil: leave the choice as it is).
	Servers []string
	// EnvDiffers says what to do when a server to move is in Switchboard
	// with another environment: "keep" Switchboard's, "import" the app's
	// too; "" refuses with a *ClientEnvError.
	EnvDiffers string
	// Plaintext lists the moved servers' secret-looking values
	// ("server.env.VAR") kept in config.json instead of the keyring.
	Plaintext map[string]bool
	// Inputs are the values of the VS Code ${input:ID} placeholders of the
	// servers to move; one missing is a *ClientInputError.
	Inputs map[string]string
	// DryRun computes the change (its Diff) and writes nothing.
	DryRun bool
}

// ClientDisconnect is one disconnect (Clients.Disconnect).
type ClientDisconnect struct {
	Name    string
	Project string
	// WithSecrets writes the moved servers' secrets back from the keyring
	// into the app's file they came from, as the app had them (what both
	// front doors do unless told not to); false leaves them empty.
	WithSecrets bool
	DryRun      bool
}

// ServeRequest is what one 'switchboard serve' offers, and to whom.
type ServeRequest struct {
	// Client names the app served ("" when not known): its calls, each
	// one routed to a server, are added to that app's count when serving
	// ends (Clients).
	Client string
	// Code is how the tools are offered: chat.ToolsDirect, ToolsCode
	// (list_functions, describe_function and run_script instead of the
	// tools) or ToolsBoth; "" takes settings.serve.tools.
	Code string
	// Warn receives what the person who runs serve should read, a
	// sentence at a time: settings that could not be read, a skills
	// folder not watched, the servers that did not start. nil drops them.
	Warn func(string)
	// SettleWait bounds the wait for the servers to start before the one
	// report of those that did not (0: a minute).
	SettleWait time.Duration

	// For HTTP only: the address to listen at (loopback unless AnyHost),
	// the bearer token every request must send, and Listening, when not
	// nil, told the address once it listens.
	Addr      string
	AnyHost   bool
	Token     string
	Listening func(net.Addr)
}
