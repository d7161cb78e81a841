// Package bundle reads MCP Bundles (.mcpb, formerly .dxt: a zip archive
// with a manifest.json, as Claude Desktop installs them; format in the
// modelcontextprotocol/mcpb repository's MANIFEST.md, manifest versions
// 0.2 to 0.4) and turns one into a server entry: Open reads and validates
// the manifest (a signature block split off), Manifest.Compatible checks
// the platform and runtimes, Unpack extracts it under a root (refusing
// escapes, links and oversize files), and Manifest.Entry is the
// config.Server with every ${...} substituted. A ${secret:…} or ${env:…}
// reference the manifest itself makes is refused (config.ErrForeignReference):
// only the user's values may reference secrets. See Example.
//
// Values of user_config keys marked sensitive are never written by this
// package: the caller passes a placeholder for them (a ${secret:NAME} the
// keyring resolves at start), and Entry substitutes it like any value.
//
// # MCP Bundles
//
// An MCP Bundle (`.mcpb`, formerly `.dxt`: the format Claude Desktop installs; manifest
// versions 0.2–0.4) installs with `switchboard servers install FILE.mcpb --set KEY=VALUE`.
// The manifest is checked first (an error names the field), then `compatibility` (platform,
// and the installed `node`/`python` against `runtimes`); the archive is unpacked into
// `bundles/<name>/<version>/` in the data dir, refusing an entry that leaves that folder
// (zip-slip), an absolute path, a link, more than 20000 files or more than 1 GB, before
// anything is written. `user_config` values come from `--set` (again for an option with
// `multiple`), else its `default`; `sensitive` ones are stored in the keyring only (the
// entry holds `${secret:NAME}`). `${__dirname}`, `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`,
// `${DOWNLOADS}`, `${pathSeparator}` and `${user_config.KEY}` are substituted (an argument
// that is one option of several values becomes several arguments) and `platform_overrides`
// applied; server types `node`, `python`, `binary` and `uv` (`uv run`). The server is named
// after the manifest's `name`; installing again (an update) keeps every value not given
// again; removing the server deletes its folder and keyring entries. A manifest is its
// author's, not yours: one that puts a `${secret:…}` or `${env:…}` reference in the server's
// command, arguments or environment (directly, in a `platform_overrides` entry or a
// `user_config` default) would hand the server another server's secret or Switchboard's
// environment, so it is refused with the field named (`manifest.json: server.mcp_config.env.X: …`),
// as is a `user_config` key declared twice (one copy `sensitive`, one not, could put the
// sensitive value in `config.json`); only values you type are referenced. A bundle signed with
// `mcpb sign` says who signed it (or that it is self-signed); an unsigned one says so. A
// signature that does not match the bundle (the file changed after signing, or another bundle's
// signature block) refuses the install with the reason and exit 2. Reinstalling a bundle whose
// author, signer (its certificate's fingerprint included) or command line (environment and
// arguments as the manifest writes them) differs from the installed copy lists each difference
// and installs nothing until you confirm: `y` at the terminal's question, `--accept-changes`,
// or Install anyway in the window's dialog, which shows the differences. A new command is another program: its tools are
// withheld as changed until you trust them again (`tools trust`, the Tools page) and the
// policies that let them run without asking are dropped. A refused install leaves nothing
// behind: no entry, no unpacked files, no keyring entry. In the window, drop a `.mcpb` on the Servers page, press
// Install bundle…, or open the file with Switchboard: a form made from `user_config` (text,
// numbers with their range, checkboxes, folder and file pickers, several values, defaults,
// required fields; sensitive fields masked) installs it, and the server's row shows the
// bundle's display name, version, author, icon and signature.
package bundle
