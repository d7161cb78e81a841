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
// and the open Agent Skills standard), ~/.codex/skills (where Codex's
// skill-installer installs) and ~/.copilot/skills (GitHub Copilot), the
// workspace's .claude/skills, .agents/skills and .github/skills, the same
// in each project folder the user added (and the folder itself), and the
// skills of each Claude Code plugin Claude Code loads (plugins.go:
// switched on in enabledPlugins, installed for everyone or for one of
// those projects, its manifest's listed skills or else its skills/). Each
// folder is one catalog server named ServerPrefix and a label
// ("skills@claude", "skills@project-agents", "skills@plugin-pdf-kit"), so
// two skills of one name are told apart by where they are.
//
// # What is checked
//
// A SKILL.md is read as Claude Code reads it, not as strictly as the Agent
// Skills specification writes it (skills.ParseSkillMD, skills.Listed): a
// skill goes by its folder's name, as Claude Code names it, made a valid
// skill name when it is not one ("My_Skill" is offered as my-skill,
// "données" as donnees, "日本語" as skill- and a digest of the folder's
// name: the name the catalog and serve publish). Names stay with their
// folders whichever others come and go (pins and switches are by name): a
// folder named with a valid name keeps it, and a made name that another
// folder has or makes too gets a suffix of a digest of the folder's name
// (unique). A frontmatter name that differs, a
// description past 1,024 characters, metadata values that are lists, a
// list of licenses, an empty compatibility, YAML that needs its values
// quoted, no frontmatter at all (the body's first line is the
// description) are loaded, each said in Skill.Warnings. A skill with no
// description and no body, or whose SKILL.md cannot be read, is listed in
// Listing.Invalid with the reason and left out. The same folder reached
// twice (~/.agents/skills is often a link to ~/.claude/skills) is listed
// once, by its real path (AlsoIn says where else). Files are read through
// an os.Root of the skill's folder, so a link is followed only within it
// (a SKILL.md that links out is refused, a file that does is left out); a
// file past the extension's limits (16 MiB in all, 512 files) is left out
// unread (LeftOut), and digests are streamed, so a 50 MB file is never
// held in memory. What running a skill leaves in its folder is not the
// skill (notServed): node_modules, __pycache__ and .pyc files, a Python
// virtualenv, hidden folders and files (.git, .venv, a .env with keys)
// and the OS's files are not listed, pinned, served or copied by Add, so
// a script that ran does not hold its skill for review.
//
// # Pinned like tools
//
// The first time a skill is seen its files' digests are kept in
// skills.json (trust on first use), by its source and name, unless its
// SKILL.md looks like hidden instructions (toolcheck.CheckSkill), when it
// is held. A skill whose files later differ is held, a plugin's skill in
// its new version's folder too: it is not offered until Accept;
// Entry.Changes says which files changed and ChangeFindings what the
// checks found in them. A folder
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
