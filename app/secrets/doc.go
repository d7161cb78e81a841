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
// (`postgresql://app:${secret:…}@localhost/db`) and secret query parameters
// (`?api_key=${secret:…}`); these fields are named `args.api-key`, `args.3`, `url.api_key`. Values are checked after VS Code's
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
// Each server has its own entries. Its entry in `config.json` carries a random `"id"`, and its
// values are kept as `server.<id>.<field>` (`server.3f9a2c7b10de.env.GITHUB_TOKEN`,
// `….headers.Authorization`, `….input.docs-token`, `….oauth.clientSecret`), so two servers
// never share one (`my server` and `my_server` used to), a rename keeps them, and a new server
// of a removed one's name starts without them. Provider keys are `provider.<name>.API_KEY`,
// logins `oauth.<server>` (with a short hash when the name has other characters). Every name
// is kept under the data directory's own scope (`settings.keyring.scope` in `config.json`,
// the keyring entry `<scope>/<name>`), so two data directories on one account never overwrite
// each other. A `config.json` from before ids and scopes is upgraded when it is opened: its
// entries get ids, and the keyring entries it uses are copied into its scope (the old ones are
// left for another data directory that may still read them).
//
// A server may use its own entries and those you give it. A `${secret:NAME}` you type — in the
// form, in `servers add`, with `secrets set NAME` — is yours and works as it always did; one
// that arrives with an import, a registry entry or a bundle and names another entry is refused
// when the server starts ("${secret:NAME} is not this server's own secret and was not given to
// it …"), until you grant it once: Grant NAME to SERVER on the server's row, or
// `switchboard secrets grant NAME --server SERVER` (grants live in `settings.secretGrants`).
// Removing a server deletes its secrets from the keyring (its own, and those nothing else in
// `config.json` uses) unless you untick the box in the confirmation, or pass
// `servers remove --keep-secrets`.
//
// `${secret:NAME}` and `${env:NAME}` are resolved when a server starts and never written
// back; `${env:NAME:-default}` is the default when NAME is unset or empty, as in a shell. Every resolved secret is masked in logs, stderr shown in the app, error messages and
// tool results shown in the window. Without a reachable keyring (a headless Linux box) the
// app says so — install and unlock gnome-keyring, or turn on KeePassXC's Secret Service —
// and `${env:…}` values keep working; there is no plaintext fallback. On Linux the keyring is
// reached over the D-Bus session bus: when `DBUS_SESSION_BUS_ADDRESS` is unset and there is
// no user bus in `/run/user/UID`, that counts as no keyring, and Switchboard never starts a
// bus itself (so no `dbus-daemon` or `gnome-keyring-daemon` is left behind).
package secrets
