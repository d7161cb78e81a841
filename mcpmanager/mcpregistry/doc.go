// Package mcpregistry reads an MCP Registry (the official one at
// https://registry.modelcontextprotocol.io, or any server speaking its
// generic API v0.1) and turns a server.json into a server entry.
//
//	c := mcpregistry.Client{BaseURL: mcpregistry.Official, CacheFile: dir.RegistryCache()}
//	page, err := c.Search(ctx, "weather", "")   // page.NextCursor for the next one
//	s, err := c.Get(ctx, "io.github.user/weather") // its latest version
//	entry, asks, err := mcpregistry.Entry(s.Server, mcpregistry.Choice{Package: 0}, values)
//
// The last listing of each search is cached: when the registry cannot be
// reached, Search returns it with Stale set and the time it was fetched.
//
// # The MCP Registry
//
// Browse registry on the Servers page searches the registry set in Settings → Servers
// (default: the official https://registry.modelcontextprotocol.io; any server speaking its
// generic API v0.1 works), More results follows `nextCursor`, Details shows the
// description, version, packages and remotes and asks for what the chosen one needs
// (environment variables, headers, URL and argument variables; secret ones are masked and
// go to the keyring) and, before anything is added or started, exactly what it will run — the
// command line as the entry runs it (`npx -y @example/weather-mcp@1.4.2 --units metric`), or the
// URL it connects to, with the names of the environment variables and headers it sets (secret
// values never shown) — and Add adds it pinned to the listed version, as `registry add`
// does; Add stays off while the server.json is refused, the reason shown in its place. A server.json is the publisher's, not yours: a `${secret:…}` or `${env:…}` reference
// in it (a header, the URL, an environment variable, an argument, a default or a choice) would
// hand the server another server's secret or Switchboard's environment at start, so Add refuses
// it with one sentence naming the field (`server.json remotes[0].headers[0].value: …`); only
// what you type is referenced, secret values as that server's own keyring entries
// (`${secret:SERVER.KEY}`). Nor may it run more than its package: an identifier or version that
// is not the shape of a package name or version — an option (`--call=…`, `-v/:/host`), a second
// word, a shell character — is refused naming the field; so are runtime arguments that make
// `npx` or `uvx` run other code (`--call`, `--package`, `--from`, `--index-url`, …) and `docker`
// options that give the container this computer (`--privileged`, `--cap-add`, `--device`,
// `--security-opt`, `--network`/`--pid`/`--ipc`/… `host`, and a `-v` / `--mount` of a folder the
// server.json chose — a folder you typed in is yours to mount). A tag the identifier carries
// (`pkg@latest`, `image:latest`) gives way to the version the entry pins. The last listing of each search is kept in `registry-cache.json`; when the registry
// cannot be reached the page says it is offline or unreachable and what to check, and shows that
// listing with how long ago it was fetched ("3 hours"); what the network said is under
// Technical details.
//
// A registry is someone else's server, so what it sends is bounded, and an error names the limit
// hit: each request (its body included) has 20 s ("did not answer within the 20 s per-request
// timeout", then the cached listing as above), a page or server.json at most 8 MB ("stopped at
// the 8 MB listing cap"), and an answer cut off short of its length is "not a listing: unexpected
// end of JSON input", never a cached page. `registry search --all` stops at a cursor the
// registry already gave ("repeated the cursor"), after 100 pages and after 2 minutes in all,
// printing what it listed and exiting 1 with the reason; Ctrl-C or SIGTERM ends it at once. In
// the window, More results is gone once the registry repeats a cursor, and the page says so. An
// `mcpb` package's download must be https (plain http only to this computer), follows redirects
// only within the same origin (a redirect elsewhere is refused, naming it), stops after 5
// minutes or 256 MB ("the 5 min download timeout", "the 256 MB download cap"), and must match
// its `fileSha256`. Adding never replaces a server: an `mcpb` package whose bundle installs under
// the name of a server you already have is refused (update a bundle from its own file).
package mcpregistry
