// Package localskills finds the skills on this computer — folders with a
// SKILL.md, as Claude Code, Codex and the Agent Skills standard, GitHub
// Copilot, Cursor and others read them — checks them, pins them and serves
// them to the skills catalog (mcpmanager/skills), so the chats and
// 'switchboard serve' offer them beside the servers' skills.
//
// # Where skills are found
//
// Places.Sources lists, in order: Switchboard's own skills folder (the
// data dir's skills/, where 'switchboard skills add' copies one), the
// personal folders ~/.claude/skills (Claude Code), ~/.agents/skills (Codex
// and the open Agent Skills standard) and ~/.copilot/skills (GitHub
// Copilot), the workspace's .claude/skills, .agents/skills and
// .github/skills, the same in each project folder the user added (and the
// folder itself), and the skills/ folder of each Claude Code plugin
// installed (~/.claude/plugins/installed_plugins.json's installPath, or
// every version under ~/.claude/plugins/cache without it). Each folder is
// one catalog server named ServerPrefix and a label ("skills@claude",
// "skills@project-agents", "skills@plugin-pdf-kit"), so two skills of one
// name are told apart by where they are.
//
// # What is checked
//
// A skill's SKILL.md frontmatter follows the Agent Skills specification:
// name of 1–64 lowercase letters, digits and single hyphens, its folder's
// name; description of 1–1024 characters; license text; compatibility of
// 1–500 characters; metadata of texts; allowed-tools text or a list. A
// skill that breaks a rule is listed in Listing.Invalid with the reason
// and left out. The same folder reached twice (~/.agents/skills is often a
// link to ~/.claude/skills) is listed once, by its real path (AlsoIn says
// where else). Files are read through an os.Root of the skill's folder, so
// a link leading out of it is never followed; a file past the extension's
// limits (16 MiB in all, 512 files) is left out unread (LeftOut), and
// digests are streamed, so a 50 MB file is never held in memory.
//
// # Pinned like tools
//
// The first time a skill is seen its files' digests are kept in
// skills.json (trust on first use), unless its SKILL.md looks like hidden
// instructions (toolcheck), when it is held. A skill whose files later
// differ is held: it is not offered until Accept; Entry.Changes says which
// files changed and ChangeFindings what the checks found in them. A folder
// the user trusts (Trust) is not held for their own edits. The catalog
// verifies every read against the listed digest, so a file changed after
// a scan never reaches the model.
//
// # Found again
//
// Watch follows the folders with fsnotify (a folder not made yet through
// its nearest existing parent, and skills.json for an accept made by
// another process) and scans again after a change settles; without it a
// scan is used for at most Fresh.
//
// See Example.
package localskills
