package localskills

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// The local skills reach the skills catalog (and through it the chats and
// serve) as one session per source, in process: the session answers the
// skills extension's skills/list and skills/get with the source's accepted
// skills (a held one is not listed) and resources/read with a listed file,
// read from disk when asked. The catalog verifies each read against the
// listed digest and size, so a file changed after the scan is not used.
// A scan makes new sessions, so the catalog lists again.

// ErrNoSource means no source folder goes by that server name.
var ErrNoSource = errors.New("no such local skills folder")

// Servers are the catalog names of the sources that have a skill offered.
func (s *Store) Servers() []string {
	l, err := s.List()
	if err != nil {
		return nil
	}
	var out []string
	for _, en := range l.Skills {
		if en.State == Accepted && !slices.Contains(out, en.Source.Server) {
			out = append(out, en.Source.Server)
		}
	}
	return out
}

// Session is the in-process session of server's skills.
func (s *Store) Session(server string) (skills.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.listLocked()
	if err != nil {
		return nil, err
	}
	if ss, ok := s.sessions[server]; ok {
		return ss, nil
	}
	ss := &session{server: server}
	for _, en := range l.Skills {
		if en.Source.Server == server && en.State == Accepted {
			ss.skills = append(ss.skills, en.Skill)
		}
	}
	if !slices.ContainsFunc(l.Sources, func(src Source) bool { return src.Server == server }) {
		return nil, fmt.Errorf("%s: %w", server, ErrNoSource)
	}
	if s.sessions == nil {
		s.sessions = map[string]*session{}
	}
	s.sessions[server] = ss
	return ss, nil
}

// session serves one source's skills; it is its own transport.
type session struct {
	server string
	skills []Skill
}

// URI is the skill URI of a local skill's file.
func URI(name, path string) string { return "skill://" + name + "/" + path }

func (ss *session) GetTransport() transport.Interface { return ss }
func (ss *session) ProtocolVersion() string           { return mcp.LATEST_PROTOCOL_VERSION }
func (ss *session) GetServerCapabilities() mcp.ServerCapabilities {
	return mcp.ServerCapabilities{Extensions: map[string]any{skills.Extension: map[string]any{}}}
}
func (ss *session) GetClientCapabilities() mcp.ClientCapabilities { return mcp.ClientCapabilities{} }

func (ss *session) Start(context.Context) error { return nil }
func (ss *session) SendNotification(context.Context, mcp.JSONRPCNotification) error {
	return nil
}
func (ss *session) SetNotificationHandler(func(mcp.JSONRPCNotification)) {}
func (ss *session) Close() error                                         { return nil }
func (ss *session) GetSessionId() string                                 { return "" }

// entry is sk as skills/list carries it.
func entry(sk Skill) map[string]any {
	files := make([]map[string]any, 0, len(sk.Files))
	for _, f := range sk.Files {
		files = append(files, map[string]any{"uri": URI(sk.Name, f.Path), "digest": f.Digest, "size": f.Size})
	}
	return map[string]any{"uri": URI(sk.Name, "SKILL.md"), "frontmatter": sk.Frontmatter, "resources": files}
}

// SendRequest answers one request of the extension.
func (ss *session) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	var params struct {
		URI string `json:"uri"`
	}
	if b, err := json.Marshal(req.Params); err == nil {
		_ = json.Unmarshal(b, &params)
	}
	var result any
	var rpcErr *mcp.JSONRPCErrorDetails
	switch req.Method {
	case "skills/list":
		list := make([]map[string]any, 0, len(ss.skills))
		for _, sk := range ss.skills {
			list = append(list, entry(sk))
		}
		result = map[string]any{"skills": list}
	case "skills/get":
		if sk, ok := ss.find(params.URI); ok && params.URI == URI(sk.Name, "SKILL.md") {
			result = map[string]any{"skill": entry(sk)}
		} else {
			rpcErr = &mcp.JSONRPCErrorDetails{Code: mcp.INVALID_PARAMS, Message: "unknown skill: " + params.URI}
		}
	case string(mcp.MethodResourcesRead):
		res, err := ss.read(params.URI)
		if err != nil {
			rpcErr = &mcp.JSONRPCErrorDetails{Code: mcp.INVALID_PARAMS, Message: err.Error()}
		} else {
			result = res
		}
	default:
		rpcErr = &mcp.JSONRPCErrorDetails{Code: mcp.METHOD_NOT_FOUND, Message: "local skills answer only skills/list, skills/get and resources/read, not " + req.Method}
	}
	resp := &transport.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: req.ID, Error: rpcErr}
	if result != nil {
		b, err := json.Marshal(result)
		if err != nil {
			return nil, err
		}
		resp.Result = b
	}
	return resp, nil
}

// find is the skill uri (its SKILL.md or one of its files) belongs to.
func (ss *session) find(uri string) (Skill, bool) {
	for _, sk := range ss.skills {
		if strings.HasPrefix(uri, "skill://"+sk.Name+"/") {
			return sk, true
		}
	}
	return Skill{}, false
}

// read reads a listed file from disk (never past the size listed).
func (ss *session) read(uri string) (any, error) {
	sk, ok := ss.find(uri)
	if !ok {
		return nil, fmt.Errorf("%s: not a file of a local skill", uri)
	}
	rel := strings.TrimPrefix(uri, "skill://"+sk.Name+"/")
	i := slices.IndexFunc(sk.Files, func(f File) bool { return f.Path == rel })
	if i < 0 {
		return nil, fmt.Errorf("%s: skill %s lists no such file", uri, sk.Name)
	}
	b, err := readFile(sk.Dir, rel, sk.Files[i].Size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (the skill changed on disk; list the skills again)", uri, err)
	}
	c := map[string]any{"uri": uri}
	switch {
	case rel == "SKILL.md":
		c["mimeType"] = "text/markdown"
		c["text"] = string(b)
	case utf8.Valid(b):
		c["mimeType"] = "text/plain"
		c["text"] = string(b)
	default:
		c["mimeType"] = "application/octet-stream"
		c["blob"] = base64.StdEncoding.EncodeToString(b)
	}
	// A 2026-07-28 result is cacheable: the file may change on disk, so
	// it is not kept (ttlMs 0) and is this user's (private).
	return map[string]any{"contents": []any{c}, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}, nil
}

// Folder is the folder on this computer of server's skill name, for the
// model to run its scripts there; "" when it is not a local skill.
func (s *Store) Folder(server, name string) string {
	if !IsLocal(server) {
		return ""
	}
	if en, ok := s.Find(server, name); ok {
		return en.Dir
	}
	return ""
}
