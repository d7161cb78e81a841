// Package bundle reads MCP Bundles (.mcpb, formerly .dxt: a zip archive
// with a manifest.json, as Claude Desktop installs them; format in the
// modelcontextprotocol/mcpb repository's MANIFEST.md, manifest versions
// 0.1 to 0.4) and turns one into a server entry: Open reads and validates
// the manifest (a signature block split off), Manifest.Compatible checks
// the platform and runtimes, Bundle.CheckArchive refuses what could never
// be installed (escapes, links, oversize files, an entry point the archive
// lacks), Unpack extracts it under a root, and Manifest.Entry is the
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
// versions 0.1–0.4, `manifest_version` or the older `dxt_version`; a manifest saved with a
// UTF-8 byte order mark reads) installs with `switchboard servers install FILE.mcpb --set
// KEY=VALUE`. The manifest is checked first (an error names the field), then `compatibility`
// (platform, and the installed `node`/`python` against `runtimes`, version ranges as npm
// writes them — `18.x`, `20`, `^18 || >=20`, `>=18 <21`, `16 - 20` — and Python's `,`,
// `~=`, `==3.11.*`; one outside says what you have and what to do: update an older one,
// install a matching one beside a newer one); a file that is not a zip archive, an archive
// entry that leaves `bundles/<name>/<version>/` in the data dir (zip-slip), an absolute
// path, a link, more than 20000 files or more than 1 GB, and an `entry_point` the archive
// lacks while the command line runs it are refused before anything is written (the window's
// form says so as soon as it shows the bundle). `user_config` values come from `--set`
// (again for an option with `multiple`; a relative file or folder is the one in the current
// directory, and one that does not exist is warned of), else its `default` (a default outside
// its own range is the bundle's mistake, and the error names its author); `sensitive` ones
// are stored in the keyring only (the entry holds `${secret:NAME}`). `${__dirname}`,
// `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`, `${pathSeparator}` and
// `${user_config.KEY}` are substituted (an argument that is one option of several values
// becomes several arguments; one that is an optional value left empty stays, empty, in its
// place, so a flag before it never takes the next argument) and `platform_overrides`
// applied; server types `node`, `python`, `binary` and `uv` (`uv run`; a program the
// command line runs that is not installed — uv, node, python — is warned of). The server
// is named after the manifest's `name`, or, for a display-style one such as MANIFEST.md's
// "My MCP Extension", a name made from it (`my-mcp-extension`). Installing again (an update)
// keeps every value you gave and not again; a default you did not change is not kept, so a
// new version's default applies; an option a new version marks `sensitive` has its value
// moved to the keyring, and the keyring entries of options it drops are deleted. Removing the
// server deletes its folder and keyring entries. A manifest is its
// author's, not yours: one that puts a `${secret:…}` or `${env:…}` reference in the server's
// command, arguments or environment (directly, in a `platform_overrides` entry or a
// `user_config` default) would hand the server another server's secret or Switchboard's
// environment, so it is refused with the field named (`manifest.json: server.mcp_config.env.X: …`),
// as is a `user_config` key declared twice (one copy `sensitive`, one not, could put the
// sensitive value in `config.json`); only values you type are referenced. A bundle signed with
// `mcpb sign` says who signed it (or that it is self-signed); an unsigned one says so. A
// signature that does not match the bundle (the file changed after signing, or another bundle's
// signature block) refuses the install with the reason and exit 2. Reinstalling a bundle that
// is an older version than the installed copy, or whose author, signer (its certificate's
// fingerprint included) or command line (environment and arguments as the manifest writes
// them) differs from it, lists each difference and installs nothing until you confirm: `y`
// at the terminal's question, `--accept-changes`, or Install anyway in the window's dialog,
// which shows the differences. A new command is another program: its tools are
// withheld as changed until you trust them again (`tools trust`, the Tools page) and the
// policies that let them run without asking are dropped. A refused install leaves nothing
// behind: no entry, no unpacked files, no keyring entry. In the window, drop a `.mcpb` on the Servers page, press
// Install bundle…, or open the file with Switchboard: a form made from `user_config` (text,
// numbers with their range, checkboxes, folder and file pickers, several values, defaults,
// required fields; sensitive fields masked), with the tools the manifest declares and the
// command it will run with the form's values, installs it, and the server's row shows the
// bundle's display name (else its name), version, author, icon and signature. A dropped file
// waits in `bundles/.incoming/` until it is installed, its form is closed or refused, and
// what is left there goes when the window starts and closes. Without a display, opening a
// `.mcpb` says so and how to install it with `switchboard servers install FILE.mcpb`
// (there is no top-level `switchboard install`).
package bundle
