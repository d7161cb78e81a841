// Package oauth logs Switchboard in to remote MCP servers the way the MCP
// authorization spec (2025-06-18 to 2026-07-28) describes, and keeps the
// tokens fresh: it reads the server's 401/403 challenge, discovers the
// protected-resource and authorization-server metadata, identifies the app
// (pre-registered client, client ID metadata document, or dynamic client
// registration), runs the authorization-code flow with PKCE (S256), state
// and the RFC 8707 resource parameter through the user's browser and a
// loopback redirect, and refreshes tokens before and after they expire (a
// minute ahead, or a quarter of a shorter token's lifetime).
//
//	a := oauth.New(oauth.Config{Server: "linear", URL: "https://mcp.linear.app/mcp"}, secrets.NewStore())
//	hc := &http.Client{Transport: &oauth.Transport{Auth: a, OnNeedsLogin: markNeedsLogin}}
//	// ... requests carry the bearer token; a 401 ends in OnNeedsLogin ...
//	err := a.Login(ctx, func(u string) { fmt.Println("log in at", u) }) // opens the browser, waits for the redirect
//
// Tokens and the client registrations (one per authorization server, by
// issuer) are kept in a Store (the OS keyring in the app) under
// KeyFor(server), never in config files or logs. Every process of the app
// (the window, the daemon, a CLI command) reads that one record: before a
// refresh and after a refused one it is read again, and a refresh never
// writes over a record another process wrote since (with rotating refresh
// tokens the second refresh would fail and log everyone out); a request
// refused with 401 or 403 first tries the token another process stored.
// Revision 2026-07-28's
// rules: registrations say application_type "native"; the login answer's
// RFC 9207 "iss" must equal the recorded issuer exactly (and be there when
// the metadata promises it); a step-up asks for the union of the scopes
// requested, granted and challenged, at most MaxStepUps times for scopes
// the authorization server keeps refusing; offline_access only when the
// authorization server lists it.
//
// An Authorizer is safe for concurrent use; one Login runs at a time.
//
// # Remote servers
//
// Entries with a `url` connect over Streamable HTTP; when `type` is not `sse`, a server that
// refuses it is retried over legacy SSE automatically. `headers` are sent on every request
// (keep tokens as `${secret:NAME}`). Plain `http://` is only accepted for this machine.
// These URL rules are checked again at every start on the final URL, after `${secret:…}`,
// `${env:…}` and `{{param}}` were filled in; a placeholder still in it is refused. Requests,
// with the OAuth token and the `headers`, only ever go to the origin (scheme, host and port)
// of the server's `url`: a redirect elsewhere — another host or port, or down from https to
// http — is refused with an error naming the server and the target (change the `url` if the
// server moved), and a login's token requests are not replayed to another origin either.
// A 401 without a Bearer challenge from a server that publishes no OAuth metadata is not
// taken for a login request (such a server wants a header of its own, such as an API key):
// the Transport hands it back as it came. A bare Bearer challenge from a server with no
// metadata and no registration at MCP 2025-03-26's default `/register` (a 401, 403, 404 or
// 405 there) ends its login with ErrNoOAuth, saying to add `"headers": {"Authorization":
// "Bearer ${secret:NAME}"}` instead — before any browser opens. Servers that use OAuth show needs login: press Log in on the Servers page or run
// `switchboard servers login NAME`. Your browser opens the provider's page; after you
// approve, it returns to Switchboard on `127.0.0.1` (or the entry's `redirectUri`), its tab
// says whether the login worked, and the server starts. A login made with the CLI while the
// window or `switchboard daemon` runs reaches them: a server there that needs the login
// starts with it within seconds. Tokens are stored
// in the OS keyring as `oauth.NAME` (in the data directory's scope) and refreshed automatically;
// they are never written to `config.json` or logs (remove them with `switchboard secrets delete
// oauth.NAME`, or remove the server with its secrets). Event
// streams resume by themselves after a dropped connection (honouring `retry:` and
// `Last-Event-ID`). Servers that ask you to fill in a form (elicitation) are answered in the
// app; on the CLI, `--yes` accepts the form's defaults, otherwise you are asked on the
// terminal.
//
// OAuth login follows the MCP authorization spec up to revision 2026-07-28. Switchboard
// identifies itself to the server's authorization server, in this order, with: the client
// in the entry's `oauth` (below); the client ID metadata document the entry's
// `clientMetadataUrl` names (one you host that describes Switchboard), when the
// authorization server supports them; else it registers itself (dynamic registration, as a
// `native` application, redirected to `http://127.0.0.1:PORT/callback`). A registration the
// authorization server forgot (it answers `invalid_client`) is dropped and made again, at
// once when the server says so, else at the next login. A registration belongs to
// the authorization server that made it: when a server moves to another one, Switchboard
// registers again there and never shows the old client ID to the new one (a client from
// `oauth` is not sent to it either: the login fails saying so — put the new client ID in
// the entry, or `switchboard secrets delete oauth.NAME` if the same ID is valid there). The
// login answer must come from the authorization server it was sent to (RFC 9207 `iss`,
// compared exactly), else it is refused before its code is used. When a server refuses one
// request for want of permissions (a 403 `insufficient_scope`), that request fails saying
// to run `switchboard servers login NAME`; the server and its other tools stay. That login
// asks for what was granted plus what is missing, whichever process runs it (the scopes
// are kept with the stored login); after two such logins that do not obtain it, the error says to ask the server's
// operator for access instead of offering another login. `offline_access` (a refresh
// token) is asked for only when the authorization server lists it. A server whose RFC 8414
// metadata omits S256 is read on in its OpenID configuration; with S256 in neither, the
// login is refused (MCP requires it).
//
// For an authorization server that refuses dynamic registration, register Switchboard with
// it yourself: pick a free port and register the redirect URI
// `http://127.0.0.1:PORT/callback`, then add to the entry (its login error says the same,
// and the CLI names the config file):
//
//	"oauth": {
//	  "clientId": "the client ID it gave you",
//	  "clientSecret": "${secret:NAME}",
//	  "redirectPort": 8765,
//	  "scopes": ["read", "write"]
//	}
//
// Every key is optional. `clientSecret` is only for a confidential client; keep it in the
// keyring (`switchboard secrets set NAME`) — a plaintext one is moved there on import
// (`--plaintext SERVER.oauth.clientSecret` keeps it) and never appears in `servers
// export`. `redirectPort` is the port of the redirect URI you registered on `127.0.0.1`;
// without it a free port is used. An authorization server that wants another URI (they
// compare it exactly) gets `"redirectUri": "http://localhost:8765/callback"`, sent as written
// (http, `localhost`, `127.0.0.1` or `[::1]`, a port, any path). Claude Code's `callbackPort`
// is read as that `redirectUri` on `localhost`, the one Claude Code sends. When the port is
// taken the login stops before the browser opens and says by what (*port 8765 (the server's
// redirectPort) is held by node (PID 4242); stop it and log in again, …*) — another port would
// only fail at the provider after you logged in. `scopes` are asked for besides those the
// server names (alone when it names none). `"resource": false` leaves out the RFC 8707
// resource parameter, for authorization servers that refuse it (Microsoft Entra ID:
// AADSTS9010010; the login error says so). `clientMetadataUrl` is above. The entry is checked with the file: a mistake is
// reported with its path, e.g. `mcpServers.linear.oauth.redirectPort: 70000 is not a port
// number`. In the window, Details → OAuth client edits it (the secret you type goes to the
// keyring and is never shown again), as does Edit → Edit as JSON.
package oauth
