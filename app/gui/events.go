package gui

import "github.com/switchboard-app/switchboard/app/host"

// The chat's events. Every Event* constant of the package (these, and those
// beside the code that emits them) is the one definition of an event's
// name: listed in EventList, 'go generate ./app' writes it, with the type
// it carries, to frontend/src/events.gen.ts.
const (
	// EventChat carries a ChatEvent of a running turn.
	EventChat = host.EventName
	// EventApproval carries an ApprovalView that waits for AnswerApproval.
	EventApproval = "chat:approval"
	// EventElicit carries an ElicitView that waits for AnswerElicitation.
	EventElicit = "chat:elicit"
	// EventRequestDone carries a RequestDone: the question was answered or withdrawn.
	EventRequestDone = "chat:requestDone"
	// EventChatsChanged says another process ('switchboard chat', a second
	// window) wrote to the chat history: the chat list and the open chat
	// read what is new (historystore.go). Never sent for the window's own
	// turns, which come as EventChat.
	EventChatsChanged = "chats:changed"
)

//go:generate go run ./internal/eventsgen -o ../../frontend/src/events.gen.ts

// EventInfo is one event the window emits and what it carries.
type EventInfo struct {
	Const   string // the constant's name, the same in Go and TypeScript
	Name    string // the event's name
	Payload any    // a zero value of the type it carries; nil for none
}

// EventList is every event with what it carries, for the generator of
// events.gen.ts. Each payload type is also a field of EventTypes, so Wails
// writes it into the bindings' models.ts.
var EventList = []EventInfo{
	{"EventServerStatus", EventServerStatus, ServerView{}},
	{"EventServerLogin", EventServerLogin, LoginView{}},
	{"EventChat", EventChat, ChatEvent{}},
	{"EventApproval", EventApproval, ApprovalView{}},
	{"EventElicit", EventElicit, ElicitView{}},
	{"EventRequestDone", EventRequestDone, RequestDone{}},
	{"EventChatsChanged", EventChatsChanged, nil},
	{"EventTerminalData", EventTerminalData, TerminalData{}},
	{"EventConfigChanged", EventConfigChanged, nil},
	{"EventFileOpen", EventFileOpen, FileOpen{}},
	{"EventAbout", EventAbout, nil},
	{"EventToolsChanged", EventToolsChanged, nil},
	{"EventNotice", EventNotice, Notice{}},
	{"EventLocalModel", EventLocalModel, LocalRuntimeView{}},
	{"EventModelDownload", EventModelDownload, ModelDownload{}},
	{"EventSkillsChanged", EventSkillsChanged, nil},
	{"EventMenu", EventMenu, MenuCommand{}},
	{"EventWorkspaceChanged", EventWorkspaceChanged, nil},
	{"EventCloseWithApps", EventCloseWithApps, CloseView{}},
}

// EventTypes has a field of each type an event carries.
type EventTypes struct {
	ServerStatus ServerView       `json:"serverStatus"`
	ServerLogin  LoginView        `json:"serverLogin"`
	Chat         ChatEvent        `json:"chat"`
	Approval     ApprovalView     `json:"approval"`
	Elicit       ElicitView       `json:"elicit"`
	RequestDone  RequestDone      `json:"requestDone"`
	TerminalData TerminalData     `json:"terminalData"`
	FileOpen     FileOpen         `json:"fileOpen"`
	Notice       Notice           `json:"notice"`
	LocalModel   LocalRuntimeView `json:"localModel"`

	// A local model's download (localmodels.go).
	ModelDownload ModelDownload `json:"modelDownload"`

	// A native menu item chosen (shortcuts.go).
	Menu MenuCommand `json:"menu"`

	// The window closed while apps use its servers (closing.go).
	CloseWithApps CloseView `json:"closeWithApps"`
}
