// Package secrets keeps credentials in the OS keyring (service "switchboard")
// and out of everything else: it resolves ${secret:NAME} and ${env:NAME}
// references when a server starts, finds secret-looking values in imported
// configs so they can move to the keyring, and masks known secret values in
// any text bound for logs, errors or the UI.
//
// A Store sets and looks up secrets in the keyring, Expand resolves the
// references in a value, and a Redactor masks every resolved value from
// then on. See Example.
//
// There is no plaintext fallback: without a keyring, ${secret:...} values
// cannot be resolved and say why; ${env:...} values keep working. On Linux
// and the BSDs a keyring needs a D-Bus session bus; without one the store
// says there is no keyring and never starts a bus (or a keyring daemon).
//
// # Secrets
//
// API keys never stay in `config.json`. On import, values that look secret — env variables
// named like `*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*PAT*`, `*AUTH*`, `*CREDENTIAL*`,
// `Authorization` headers and headers whose last word is key, token, secret or password
// (`X-Api-Key`, `CONTEXT7_API_KEY`), values shaped like known tokens (`sk-`, `ghp_`,
// `xox…-`, `AKIA`, `eyJ`, …) or holding one (a bearer token inside Notion's
// `OPENAPI_MCP_HEADERS`), and a URL's password — move to the OS keyring (service `switchboard`)
// and the config keeps a `${secret:…}` reference in their place. A value written `$NAME` is a
// variable's name, not a secret. An import also moves what is written on the command line and
// in a remote server's URL, only that part of the string becoming the reference: a secret
// flag's value (`--api-key VALUE`, `--token=VALUE`, but not a path), docker's `-e TOKEN=VALUE`,
// mcp-remote's `--header "Authorization: Bearer …"`, a URL's password
// (`postgresql://app:${secret:…}@localhost/db`), secret query parameters
// (`?api_key=${secret:…}`, camelCase ones such as Tavily's `?tavilyApiKey=` too) and a
// credential in a URL's path (Firecrawl's `/fc-…/`, Zapier's `/s/<secret>/`: a token of a
// known shape, or a long random string that is not hex; hosts whose ids are public, such as
// github.com and docs.google.com, keep their random-looking ids). A URL gets these rules
// wherever it is written: a remote server's `url`, an argument (`npx mcp-remote URL`,
// `--url=URL`, `NAME=URL`, a header argument) and an env or header value. These fields are
// named `args.api-key`, `args.3`, `args.3.tavilyApiKey`, `url.api_key`, `url.path`,
// `env.UPSTREAM_URL.exaApiKey`; the part moved is kept as written (still escaped), so the
// URL is the same once the reference is resolved. Values are checked after VS Code's
// `${input:ID}` values are put in, and the value typed for an input declared `"password": true`
// always goes to the keyring, the reference sitting where the input was (`"Authorization":
// "Bearer ${secret:…}"`, `"--token=${secret:…}"`). The dry run and the import wizard show which
// values move and from which field (masked `••••last4`; a password input as "the password you
// type for ID"); `--plaintext SERVER.env.VAR` or unticking the box keeps one in the file.
// `servers add --env NAME=VALUE` follows the same rule (`--plaintext VAR` keeps a value, and
// `--env NAME=-` reads the value from standard input instead of the command line, always to the
// keyring); the Add server form marks a secret-looking value and offers Keep NAME in the
// keyring. When a save moves a value to the keyring, `config.json.bak` does not keep the
// plaintext copy either (the backup is then the saved file).
//
// A name that says password or secret moves whatever the value's length: its last word is
// one (`DB_PASSWORD`, `DB_PASS`, `MYSQL_PWD`, `SMTP_PW`, `SSH_PASSPHRASE`, `CLIENT_SECRET`,
// written together too: `PGPASSWORD`), or it is a secret's key (`DJANGO_SECRET_KEY`); not a
// switch (`REQUIRE_PASSWORD=true`), a URL, the shell's working directory (`PWD`, `OLDPWD`, a
// path under `HOST_PWD`), nor a name whose last word describes the password
// (`PASSWORD_MIN_LENGTH`, `PASSWORD_FILE`; `PASSTHROUGH`, `BYPASS_CACHE` are other words).
// A name that says only session or cookie (`TMUX_SESSION`, `COOKIE_DOMAIN`) moves an opaque
// session id or a cookie's pairs, not a name or a setting. The password inside a connection
// string moves whatever its name: ADO.NET's and ODBC's `Password=`/`PWD=` among other pairs,
// libpq's `password=`, JDBC's `;password=`/`&password=` and `jdbc:…://user:…@`, a Go MySQL
// DSN's `user:…@tcp(…)` (in an argument only that part becomes the reference). A short flag
// moves only for a program known to read a password from it (`sshpass -p`, `redis-cli -a`,
// `mysql -pSECRET`): curl's `-k` or a server's `-p PORT` are not. A value moved out of `args`
// is put back on the command line when the server starts, where other users of the computer
// can read it (`ps`, `/proc/PID/cmdline`): the import, `servers add` and `servers list` say so
// (use the server's environment variable when it has one), and docker's and podman's
// `run -e NAME=secret` is imported as `-e NAME` with NAME in the server's environment, which
// docker reads it from. A dry run names a new server's entries `server.<new id>.…` (the
// import makes the id). `servers add --env` says where each value went (the keyring, or
// `config.json` and why), and `servers export` names by JSON path each value `config.json`
// keeps in plain text that would move (the export holds a `${secret:…}` placeholder there).
//
// Each server has its own entries. Its entry in `config.json` carries a random `"id"`, and its
// values are kept as `server.<id>.<field>` (`server.3f9a2c7b10de.env.GITHUB_TOKEN`,
// `….headers.Authorization`, `….input.docs-token`, `….oauth.clientSecret`), so two servers
// never share one (`my server` and `my_server` used to), a rename keeps them, and a new server
// of a removed one's name starts without them. Provider keys are `provider.<name>.API_KEY`,
// logins `oauth.<server>` (with a short hash when the name has other characters). Every name
// is kept under the data directory's own scope (`settings.keyring.scope` in `config.json`,
// the keyring entry `<scope>/<name>`), so two data directories on one account never overwrite
// each other. `settings.keyring.dir` records the directory the scope was given to: a
// `config.json` copied to another data directory (a backup, a second profile) while the
// original still uses the scope gets a scope of its own when it is opened, the entries it uses
// copied into it and a warning logged once, so removing a server or a secret in one never
// deletes the other's; a directory moved, or reached through a symbolic link or a bind mount,
// keeps its scope. A `config.json` from before ids and scopes is upgraded when it is opened: its
// entries get ids, and the keyring entries it uses are copied into its scope (the old ones are
// left for another data directory that may still read them).
//
// A server may use its own entries and those you give it. A `${secret:NAME}` you type — in the
// form, in `servers add`, with `secrets set NAME` — is yours and works as it always did; one
// that arrives with an import, a registry entry or a bundle and names another entry is refused
// when the server starts ("${secret:NAME} is not this server's own secret and was not given to
// it …"), until you grant it once: Grant NAME to SERVER on the server's row, or
// `switchboard secrets grant NAME --server SERVER` (grants live in `settings.secretGrants`).
// Grants decide what Switchboard hands each server, but on Linux any server that runs without a
// sandbox (and any workspace shell command given your session bus address) can read every
// Switchboard keyring entry over D-Bus itself: only a server with `"sandbox": true` is kept from
// the keyring (with `"network": true` too only where the session bus is a socket file, as on
// current desktops, not an abstract socket: see mcpmanager/sandbox's limits).
// Removing a server deletes its secrets from the keyring (its own, and those nothing else in
// `config.json` uses) unless you untick the box in the confirmation, or pass
// `servers remove --keep-secrets`. They go first: when the keyring cannot delete them (it is
// locked), the server stays, with its secrets listed, and the error says to unlock the keyring.
//
// `${secret:NAME}` and `${env:NAME}` are resolved when a server starts and never written
// back; `${env:NAME:-default}` is the default when NAME is unset or empty, as in a shell.
//
// Every resolved secret is masked (`••••last4`) at the source, in whatever a server says,
// before anyone is handed it: its tool, prompt and resource descriptions and schemas, its
// instructions and status, its errors, its tool results (text, embedded resources,
// structuredContent), prompts, resource text, progress messages, tasks' status messages,
// completions, the skills it offers (their listing and files) and its log, and the questions
// it asks: a sampling request's system prompt and messages (bound for a model provider and a
// card) and an elicitation's message and form (shown in the window or relayed to a client of
// `serve`), masked as they enter (router.Tying), so a server cannot carry another server's
// value to them either. The host gives its
// Redactor to the manager (mcpmanager.Options.Redact, router.Redactor), so every door — a chat
// and the model provider it talks to, the CLI (`tools call`, `tools list`, `chat`), `serve`'s
// clients, the window — and every file kept (history.db, pins.json, listings/) gets the masked
// text. Results are masked too, by decision: a server's own credential has no business reaching
// a model provider (nor history or a client of `serve`). The built-ins' results and completions
// (and the skills on this computer) are the exception (router.Options.OwnData): they are the user's own files and stores, which the user
// gave the model, and a model that read a file with a masked key and wrote it back would write
// the mask over the key; their errors and listings are masked like any server's. Names and URIs are not masked (they
// identify what is called or read). A value is masked the same way in every process, so a
// pinned description that held one stays trusted across restarts (a pin taken before masking is
// taken over masked). Masking costs nothing while no secret is known, and one pass over the
// text whatever their number; a relayed result is decoded only when it may hold one. Removing a
// server also deletes its pins and its kept listing.
//
// Without a reachable keyring (a headless Linux box) the app says so — install and unlock
// gnome-keyring, or turn on KeePassXC's Secret Service — and `${env:…}` values keep
// working; there is no plaintext fallback. A locked keyring (its unlock prompt dismissed or
// not shown) says "unlock your keyring (the login keyring) and try again" (ErrLocked), and
// `secrets list` shows its values as `(keyring locked: unlock it)` (MaskedLocked). On Linux the keyring is reached over the D-Bus
// session bus: when `DBUS_SESSION_BUS_ADDRESS` is unset and there is no user bus in
// `/run/user/UID`, that counts as no keyring, and Switchboard never starts a bus itself (so no
// `dbus-daemon` or `gnome-keyring-daemon` is left behind).
package secrets
