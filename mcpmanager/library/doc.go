// Package library owns what Switchboard knows about a server beyond how to
// run it: its metadata (description, tags, docs URL, colour), the templates
// servers are added from ({{param}} placeholders described by a JSON
// Schema), and profiles (per-environment overrides of url, env, args and
// headers, such as "work" and "home").
//
// Everything lives in the server's own entry of config.json, under keys other
// hosts ignore ("metadata", "parameters", "profiles"), so an exported config
// still loads in Claude Desktop or Cursor:
//
//	"github": {
//	  "url": "https://api.githubcopilot.com/mcp/",
//	  "metadata": {"description": "Issues and pull requests", "tags": ["code"]},
//	  "profiles": {"work": {"url": "https://github.example.com/mcp/"}}
//	}
//
// ExampleTemplate_Instantiate adds a server from a template and
// ExamplePrepare chooses what runs under a profile.
//
// Functions here are pure: they read and return config values and never
// touch the disk, so they are safe for concurrent use.
package library
