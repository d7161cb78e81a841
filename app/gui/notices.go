package gui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/switchboard-app/switchboard/app/host"
)

// EventNotice carries a Notice: something Switchboard refused or held back
// on the user's behalf, shown in the chat where approvals appear.
const EventNotice = "chat:notice"

// Notice is one thing the user should know Switchboard refused or held
// back: a server's sampling request (Kind "sampling") or an MCP App's text
// for the model (Kind "app-context").
type Notice struct {
	ID     string `json:"id"`
	ChatID string `json:"chatId,omitempty"` // "" when no chat is known: shown in every chat
	Server string `json:"server"`
	Kind   string `json:"kind"`
	Text   string `json:"text"`
}

// Notice kinds.
const (
	NoticeSampling   = "sampling"
	NoticeAppContext = "app-context"
)

// noticeSeq numbers notices, so the window can dismiss each.
var noticeSeq atomic.Int64

// notify shows n in the chat.
func (a *core) notify(n Notice) {
	n.ID = "notice-" + strconv.FormatInt(noticeSeq.Add(1), 10)
	a.emitEvent(EventNotice, n)
}

// samplingRefused is host.ChatRequests.OnRefused for the window.
func (a *core) samplingRefused(r host.SamplingRefusal) {
	a.notify(Notice{ChatID: r.ChatID, Server: r.Server, Kind: NoticeSampling, Text: "Refused a request from " + r.Server + " to use the model: " + r.Why + "."})
}

// appContextNotice says why an app's context did not reach the model.
func appContextNotice(server, uri string, err error) string {
	var w *host.ContextWithheld
	if errors.As(err, &w) {
		var reasons []string
		for _, f := range w.Findings {
			reasons = append(reasons, f.Reason)
		}
		return fmt.Sprintf("Withheld from the model what the app %s of %s gave it: it looks like instructions to the model (%s). The model did not see it.", uri, server, strings.Join(slices.Compact(reasons), "; "))
	}
	return fmt.Sprintf("The app %s of %s gave the model text it did not get: %v.", uri, server, err)
}
