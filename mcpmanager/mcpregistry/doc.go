// Package mcpregistry reads an MCP Registry (the official one at
// https://registry.modelcontextprotocol.io, or any server speaking its
// generic API v0.1, or v0 when that is all it answers) and turns a
// server.json into a server entry.
//
//	c := mcpregistry.Client{BaseURL: mcpregistry.Official, CacheFile: dir.RegistryCache()}
//	page, err := c.Search(ctx, "weather", "")   // page.NextCursor for the next one
//	s, err := c.Get(ctx, "io.github.user/weather") // its latest version
//	opt := mcpregistry.Options(s.Server)[0]       // a package or a remote it offers
//	asks := mcpregistry.Asks(s.Server, opt)       // what may be given
//	entry, err := mcpregistry.Entry(s.Server, opt, values)
//
// The last listing of each search is cached: when the registry cannot be
// reached, Search returns it with Stale set and the time it was fetched.
//
// # What a server.json makes
//
// Every input without a fixed value can be given (Asks): environment
// variables, headers, runtime and package arguments (by valueHint, else
// the argument's name without dashes), and the {variables} of fixed
// values — required or optional, with or without a default; a value
// given replaces the default, and a key the server.json does not have, or
// a value outside an input's choices, is refused (ValueError). A fixed
// value is the publisher's and is not asked; a {name} in it with no
// variable of that name stays as it is, as the spec says. A named
// argument is "--flag value" (the spec's "--flag {value}"): one with no
// value (none fixed, given or defaulted) is left out, never put on the
// command line bare, where it would take the next argument as its value
// (the spec's database example: an optional --port before the database
// name). Only a named argument whose format is boolean is a bare flag:
// there when its value is "true", left out when "false" or not given.
// An OCI package's docker option "-e NAME=VALUE" whose value is a secret
// you gave (GitHub's server.json sets its token so) becomes "-e NAME" with
// NAME in the entry's environment, so the secret is never on a command
// line other users of the computer can read; "-e NAME" is there once.
//
// # What the registry says of a server
//
// Each listing's _meta (io.modelcontextprotocol.registry/official) gives
// its status, publishedAt and isLatest. A server the registry marks
// deleted is never added (StatusError says why); one it marks deprecated
// is added with a warning, and the doors mark it in a search. Search asks
// for version=latest and, from a registry that lists every version all
// the same, keeps the one isLatest names (else the one published last),
// so a server is listed once (Latest).
//
// # Where the registry is
//
// A registry's address is https, or plain http to this computer only
// (localhost, 127.0.0.1, ::1; CheckRegistryURL, the rule of
// CheckDownloadURL): a name that only starts like one
// (http://localhost.evil.example) or another scheme is refused before any
// connection, saying so. An address where neither /v0.1/servers nor
// /v0/servers is there is "not an MCP Registry" (NotRegistryError), never
// "no server of that name".
//
// # The MCP Registry
//
// Browse registry on the Servers page searches the registry set in Settings → Servers
// (default: the official https://registry.modelcontextprotocol.io; any server speaking its
// generic API v0.1 works), More results follows `nextCursor`, Details shows the
// description, version, packages and remotes and asks for what the chosen one takes
// (environment variables, headers, arguments, URL and argument variables; the optional ones
// too, marked optional; defaults prefilled and editable; a choice without a default starts on
// "Choose…" when required, "(not set)" when optional; secret ones are masked and go to the
// keyring), a Name field (the registry's last part by default: two servers of the same name
// need another), and, before anything is added or started, exactly what it will run — the
// command line as the entry runs it (`npx -y @example/weather-mcp@1.4.2 --units metric`), or the
// URL it connects to, with the names of the environment variables and headers it sets (secret
// values never shown) — and Add adds it pinned to the listed version, as `registry add`
// does; Add stays off while the server.json is refused, the reason shown in its place; a
// required field left empty is named ("Fill in db_type …"). A deprecated server is marked in
// the list and in Details, and Add says so; a deleted one is marked and cannot be added; one
// that offers nothing to run says why (a package kind Switchboard does not install, a package
// that serves HTTP itself). An `mcpb` package is downloaded and checked when its Details open,
// so they show the bundle's own form (its user_config) and the name it installs as (its
// manifest's); Add installs that download. A server.json is the publisher's, not yours: a `${secret:…}` or `${env:…}` reference
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
// its `fileSha256`. Adding never replaces a server: a server whose name is taken is
// refused (give it another: `registry add --name`, or the Name field), and so is an `mcpb` package
// whose bundle installs under the name of a server you already have (a bundle keeps its
// manifest's name: update it from its own file, or remove the other first).
package mcpregistry
