package host

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/clients"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// The host's sentinel errors: a front door tells them apart with
// errors.Is (the CLI maps some to its exit codes, the window to what it
// shows), so each keeps its identity however it is wrapped. The typed
// errors below them carry what a door shows with the sentence.
var (
	// ErrNoServer: no configured server has that name.
	ErrNoServer = errors.New("no server named")

	// ErrNameTaken: a configured or built-in server already has that name.
	ErrNameTaken = errors.New("a server with that name already exists")

	// ErrChangedOnDisk: the entry being saved was changed in config.json (by
	// the CLI, an editor or another window) after the form loaded it. The save
	// is refused rather than overwriting that change; other entries changed
	// meanwhile never conflict, since the save edits config.json under its lock
	// and touches only its own entry.
	ErrChangedOnDisk = errors.New("changed on disk")

	// ErrNotGranted: a server refers to a keyring entry that is neither its
	// own nor given to it. Such a reference comes with an import, a registry
	// entry or a bundle; the user grants it once (Secrets.Grant).
	ErrNotGranted = errors.New("is not this server's own secret and was not given to it")

	// ErrNoAppTool: a tool an app called is not one of its server's tools.
	ErrNoAppTool = errors.New("the app's server has no such tool")

	// ErrAppClosed: a download names an app session that is not open (or was
	// opened so long ago that it was forgotten).
	ErrAppClosed = errors.New("the app is no longer open: open it again")

	// ErrModelContextTooLong: an app's context for the model is over
	// MaxModelContext.
	ErrModelContextTooLong = errors.New("the app's context for the model is too long")

	// ErrBundleChanged: reinstalling a bundle would change who made it, who
	// signed it or what it runs; the user must see the difference and confirm
	// (InstallChanged).
	ErrBundleChanged = errors.New("this bundle is not the one installed")

	// ErrNoSuchSkill: the server lists no skill of that name.
	ErrNoSuchSkill = errors.New("the server lists no skill of that name")

	// ErrNotLoopback: serve's HTTP address is not a loopback one, and the
	// request did not say that other machines may reach it.
	ErrNotLoopback = errors.New("is not a loopback address; use 127.0.0.1:PORT, or add --listen-any if you mean it")

	// ErrNotWired: a turn is asked for before the door wired the chat
	// engine (Chats.Wire, which the window and 'switchboard chat' call at
	// start).
	ErrNotWired = errors.New("the chat engine is not ready yet: try again in a moment")

	// ErrEmpty: a message to send is empty (the chat package's own
	// sentinel, so errors.Is holds on either name).
	ErrEmpty = chat.ErrEmpty

	// ErrHistoryClosed: the chat history is asked for after the host closed.
	ErrHistoryClosed = errors.New("the chat history is closed (the app is quitting)")

	// ErrResultsClosed is a kept result asked for after the host closed.
	ErrResultsClosed = errors.New("the chat results are closed (the app is quitting)")

	// ErrLocalRestarting: llama-server exited and is being started again.
	ErrLocalRestarting = errors.New("the model on this computer stopped and is starting again")

	// ErrLocalStopped: the app is closing.
	ErrLocalStopped = errors.New("the model on this computer is stopped: the app is closing")

	// ErrModelNotInstalled: the model is neither downloaded nor chosen
	// (a *ModelMissingError says what to do).
	ErrModelNotInstalled = errors.New("is not on this computer")

	// ErrDownloadRunning: that model is being downloaded already.
	ErrDownloadRunning = errors.New("is already being downloaded")

	// ErrNotInCatalog: no model of the catalog has that name.
	ErrNotInCatalog = errors.New("is not a model of the catalog")

	// ErrBundleManifest: the bundle's manifest.json is missing or invalid.
	ErrBundleManifest = bundle.ErrManifest

	// ErrBundleUnsafe: an entry of the bundle's archive would leave its
	// folder or is a link, or the archive is over the size limits.
	ErrBundleUnsafe = bundle.ErrUnsafe

	// ErrBundleIncompatible: the bundle does not run on this computer.
	ErrBundleIncompatible = bundle.ErrIncompatible

	// ErrBundleUserConfig: a value of the bundle's user_config is missing
	// or out of range.
	ErrBundleUserConfig = bundle.ErrUserConfig

	// ErrBundleRequired: a required value of the bundle's user_config is
	// not given (with ErrBundleUserConfig): the form is not filled in yet.
	ErrBundleRequired = bundle.ErrRequired

	// ErrBundleNotBundle: the file is not an MCP Bundle (not a zip archive).
	ErrBundleNotBundle = bundle.ErrNotBundle

	// ErrBundleInvalidSignature: the bundle has a signature that does not
	// verify (changed after signing, or another bundle's signature).
	ErrBundleInvalidSignature = bundle.ErrInvalidSignature

	// ErrUnknownTemplate: no server template has that ID.
	ErrUnknownTemplate = library.ErrUnknownTemplate

	// ErrBadTemplate: the template itself is wrong (a placeholder its
	// schema does not declare, a schema that is not an object schema).
	ErrBadTemplate = library.ErrBadTemplate

	// ErrInvalidTemplateParam: a template parameter's value does not match
	// its schema.
	ErrInvalidTemplateParam = library.ErrInvalidParam

	// ErrRegistryMissing: adding a registry server needs a value (an
	// environment variable, header or URL variable) that was not given.
	ErrRegistryMissing = mcpregistry.ErrMissing

	// ErrRegistryNotFound: the registry has no server of that name.
	ErrRegistryNotFound = mcpregistry.ErrNotFound

	// ErrRegistryUnsupported: the registry's server offers nothing this
	// app can run (no npm, PyPI, OCI or MCPB package, no remote).
	ErrRegistryUnsupported = mcpregistry.ErrUnsupported
)

// ContextWithheld is the error for an app's context that toolcheck flags:
// it is kept from the model, and the user is told why.
type ContextWithheld struct {
	Server, App string
	Findings    []toolcheck.Finding
}

func (e *ContextWithheld) Error() string {
	return fmt.Sprintf("withheld from the model: what the app %s of %s gave it looks like instructions to the model (%s)", e.App, e.Server, e.Findings[0].Reason)
}

// BundleChangedError lists what a reinstall would change.
type BundleChangedError struct {
	Name    string
	Changes []BundleChange
}

func (e *BundleChangedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: reinstalling %s changes", ErrBundleChanged, e.Name)
	for i, c := range e.Changes {
		if i > 0 {
			b.WriteString(";")
		}
		if c.What == "version" {
			fmt.Fprintf(&b, " its version from %s to the older %s", strconv.Quote(c.Was), strconv.Quote(c.Now))
			continue
		}
		fmt.Fprintf(&b, " its %s from %s to %s", c.What, strconv.Quote(c.Was), strconv.Quote(c.Now))
	}
	b.WriteString(": nothing was installed; install it only if you expected this (in the window, confirm; 'servers install --accept-changes')")
	return b.String()
}

func (e *BundleChangedError) Unwrap() error { return ErrBundleChanged }

// Plain says it in a sentence, then each difference on its lines.
func (e *BundleChangedError) Plain() (sentence, detail string) {
	var b strings.Builder
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "%s was: %s\n%s now: %s\n", c.What, c.Was, c.What, c.Now)
	}
	if slices.ContainsFunc(e.Changes, func(c BundleChange) bool { return c.What == "command" }) {
		b.WriteString("a new command is another program: its tools will be withheld until you review them again\n")
	}
	if len(e.Changes) == 1 && e.Changes[0].What == "version" {
		return fmt.Sprintf("This is an older version of %s (%s) than the one installed (%s), so nothing was installed: install it only if you mean to go back (confirm in the window, or run again with --accept-changes).",
			e.Name, e.Changes[0].Now, e.Changes[0].Was), strings.TrimSuffix(b.String(), "\n")
	}
	return fmt.Sprintf("This is not the %s bundle you installed (another %s), so nothing was installed: install it only if you expected this (confirm in the window, or run again with --accept-changes).",
		e.Name, whats(e.Changes)), strings.TrimSuffix(b.String(), "\n")
}

// ErrSkillAmbiguous means two local skills have that name; the caller
// names the source (skills@claude, …) to tell them apart.
var ErrSkillAmbiguous = errors.New("more than one skill on this computer has that name")

// Errors adding or removing a local skill, the engine's named for the doors.
var (
	ErrNotSkill    = localskills.ErrNotSkill // not a skill folder or .zip of one
	ErrSkillExists = localskills.ErrExists   // Switchboard's skills folder has one of that name
	ErrNotOwnSkill = localskills.ErrNotOwn   // not in Switchboard's skills folder
)

// SkillHeld is LocalSkill.State of a skill withheld until accepted.
const SkillHeld = localskills.Held

// The connected apps' errors (Clients).
var (
	// ErrNoClient: no MCP app Switchboard knows has that name.
	ErrNoClient = errors.New("no MCP app named")
	// ErrClientEnvDiffers: a server to move is in Switchboard already,
	// with another environment; the user chooses which to keep.
	ErrClientEnvDiffers = errors.New("a server to move is already in Switchboard with another environment")
	// ErrClientFileInvalid: the app's file cannot be parsed (or its servers
	// are not where the app keeps them); nothing was written.
	ErrClientFileInvalid = clients.ErrSyntax
	// ErrClientFileShape: the app's file parses, but not in the app's shape.
	ErrClientFileShape = clients.ErrShape
)

// ClientEnvError names the servers to move whose environment differs
// from the same server's in Switchboard.
type ClientEnvError struct{ Servers []string }

func (e *ClientEnvError) Error() string {
	return "these servers are in Switchboard already with another environment: " + strings.Join(e.Servers, ", ") +
		"; choose --env-differs=keep (use Switchboard's) or --env-differs=import (import the app's as well)"
}

// Unwrap returns ErrClientEnvDiffers.
func (e *ClientEnvError) Unwrap() error { return ErrClientEnvDiffers }

// TemplateParamError is a problem with one parameter of a template (a
// value missing, unknown or not matching its schema, or one that could
// not be kept in the keyring): a door asks for that value again.
type TemplateParamError = library.ParamError

// AgentProviderError is a chat's model that cannot be opened because its
// agent names a provider that is not set up (removed, or renamed, since):
// it names the agent and where to fix it. It unwraps to Err
// (chat.ErrUnknownProvider).
type AgentProviderError struct {
	Agent, Provider string
	Err             error
}

func (e *AgentProviderError) Error() string {
	return fmt.Sprintf("agent %q uses the provider %q, which is not set up: choose another provider in the agent's form (the Agents page, or 'switchboard agents edit %s --provider NAME') or in this chat's model menu, or add %q in Settings → Models",
		e.Agent, e.Provider, e.Agent, e.Provider)
}

func (e *AgentProviderError) Unwrap() error { return e.Err }

// ForAgent is err, an error opening provider for a chat, as an
// *AgentProviderError when it is agent's own provider that is not set up;
// else err itself (agent nil: the chat has none).
func ForAgent(agent *ChatAgent, provider string, err error) error {
	if agent == nil || err == nil || !errors.Is(err, chat.ErrUnknownProvider) || !strings.EqualFold(agent.Provider, provider) {
		return err
	}
	return &AgentProviderError{Agent: agent.Name, Provider: agent.Provider, Err: err}
}
