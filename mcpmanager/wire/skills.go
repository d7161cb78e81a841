package wire

// SkillsExtension is the capability key of the skills extension (SEP-2640,
// final since 2026-09): a server declaring it lists skills (skills/list,
// skills/get) whose files it serves through resources/read. The client
// declares it too, so a server that only lists skills to hosts that can
// load them does so.
const SkillsExtension = "io.modelcontextprotocol/skills"
