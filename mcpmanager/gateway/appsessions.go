package gateway

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// appSessions are the gateway's sessions (every transport's), so that a
// new choice of servers for one app (Options.Sees) reaches that app's
// sessions and no other's.
type appSessions struct {
	mu   sync.Mutex
	byID map[string]server.ClientSession
}

// trackSessions keeps g.apps current as sessions come and go.
func (g *Gateway) trackSessions(hooks *server.Hooks) {
	hooks.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		g.apps.mu.Lock()
		if g.apps.byID == nil {
			g.apps.byID = map[string]server.ClientSession{}
		}
		g.apps.byID[s.SessionID()] = s
		g.apps.mu.Unlock()
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		g.apps.mu.Lock()
		delete(g.apps.byID, s.SessionID())
		g.apps.mu.Unlock()
	})
}

// sessionApp names the app a session serves, as AppOf names it for the
// session's requests: the name ServeApp was given, else its initialize
// clientInfo.name.
func sessionApp(s server.ClientSession) string {
	if st, ok := s.(*stdioSession); ok && st.app != "" {
		return st.app
	}
	if ci, ok := s.(server.SessionWithClientInfo); ok {
		return ci.GetClientInfo().Name
	}
	return ""
}

// listsChanged are the notifications an app is sent when what it sees
// changed: every list may differ.
var listsChanged = []mcp.MCPMethod{
	mcp.MethodNotificationToolsListChanged,
	mcp.MethodNotificationPromptsListChanged,
	mcp.MethodNotificationResourcesListChanged,
}

// ChoiceChanged tells app's sessions that the servers it sees changed
// (Options.Sees answers differently for it now): each of its initialized
// sessions is sent notifications/tools/list_changed,
// notifications/prompts/list_changed and
// notifications/resources/list_changed, so it lists again now rather than
// at its next list of its own. Other apps' sessions are sent nothing. It
// returns how many sessions were told.
func (g *Gateway) ChoiceChanged(app string) int {
	if app == "" {
		return 0
	}
	g.apps.mu.Lock()
	var ids []string
	for id, s := range g.apps.byID {
		if sessionApp(s) == app {
			ids = append(ids, id)
		}
	}
	g.apps.mu.Unlock()
	told := 0
	for _, id := range ids {
		sent := false
		for _, m := range listsChanged {
			// A session that is not initialized yet lists after it is; a
			// full queue means a client that reads nothing.
			sent = g.srv.SendNotificationToSpecificClient(id, string(m), nil) == nil || sent
		}
		if sent {
			told++
		}
	}
	return told
}
