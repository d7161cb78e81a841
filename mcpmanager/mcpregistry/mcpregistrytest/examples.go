package mcpregistrytest

// Example is a server.json and what the registry says of it (_meta).
type Example struct {
	Doc  string
	Meta Meta
}

// Examples are the server.json spec's examples (generic-server-json.md:
// "Filesystem Server with Multiple Packages", "Complex Docker Server with
// Multiple Arguments", "Server with Remote and Package Options",
// "Deprecated Server Example", the NuGet one) in the 2025-09-29 schema's
// shape, and servers the spec describes in words: a boolean flag, a
// {name} with no variable, a package that serves HTTP itself, a server the
// registry deleted, a description of one unbroken word. The filesystem
// server is listed in two versions (1.0.0 not the latest); the Docker one
// is without its "--network host", which Switchboard refuses
// (SpecDatabaseNetwork adds it back). The deprecated one is renamed
// old-forecast, and the NuGet one's description loses "and random
// weather", so that a search for "weather" finds only Documents' one.
// The e2e tests serve them with the testserver's -examples.
var Examples = []Example{
	{Doc: filesystem("1.0.0"), Meta: Meta{NotLatest: true, PublishedAt: "2025-09-01T00:00:00Z"}},
	{Doc: filesystem("1.0.2")},
	{Doc: DatabaseManager},
	{Doc: `{
  "name": "io.modelcontextprotocol.anonymous/hybrid-mcp",
  "description": "MCP server available as both local package and remote service",
  "version": "1.5.0",
  "packages": [{"registryType": "npm", "registryBaseUrl": "https://registry.npmjs.org", "identifier": "@example/hybrid-mcp-server", "version": "1.5.0", "runtimeHint": "npx", "transport": {"type": "stdio"},
    "packageArguments": [{"type": "named", "name": "--mode", "description": "Operation mode", "default": "local", "choices": ["local", "cached", "proxy"]}]}],
  "remotes": [
    {"type": "sse", "url": "https://mcp.anonymous.modelcontextprotocol.io/sse", "headers": [
      {"name": "X-API-Key", "description": "API key for authentication", "isRequired": true, "isSecret": true},
      {"name": "X-Region", "description": "Service region", "default": "us-east-1", "choices": ["us-east-1", "eu-west-1", "ap-southeast-1"]}]},
    {"type": "streamable-http", "url": "https://mcp.anonymous.modelcontextprotocol.io/http"}]
}`},
	{Doc: `{
  "name": "io.github.joelverhagen/knapcode-samplemcpserver",
  "description": "Sample NuGet MCP server for a random number",
  "version": "0.5.0",
  "packages": [{"registryType": "nuget", "registryBaseUrl": "https://api.nuget.org/v3/index.json", "identifier": "Knapcode.SampleMcpServer", "version": "0.5.0", "runtimeHint": "dnx", "transport": {"type": "stdio"},
    "packageArguments": [{"type": "positional", "value": "mcp"}, {"type": "positional", "value": "start"}]}]
}`},
	{Doc: `{
  "name": "io.github.example/old-forecast",
  "description": "Legacy forecast server - DEPRECATED: Use forecast-v2 instead for new projects",
  "version": "0.9.5",
  "packages": [{"registryType": "npm", "registryBaseUrl": "https://registry.npmjs.org", "identifier": "@legacy/old-forecast-server", "version": "0.9.5", "transport": {"type": "stdio"}}]
}`, Meta: Meta{Status: "deprecated"}},
	{Doc: `{
  "name": "io.github.example/flags",
  "description": "A boolean flag, an optional choice, a repeated folder and literal braces",
  "version": "1.0.0",
  "packages": [{"registryType": "npm", "identifier": "flags-mcp", "version": "1.0.0", "transport": {"type": "stdio"},
    "packageArguments": [
      {"type": "named", "name": "--read-only", "description": "Open read-only", "format": "boolean"},
      {"type": "named", "name": "--log-level", "description": "Log level", "choices": ["debug", "info"]},
      {"type": "positional", "valueHint": "dir", "description": "Folders", "isRequired": true, "isRepeated": true, "format": "filepath"},
      {"type": "named", "name": "--config", "value": "{config_json}", "description": "literal braces"}]}]
}`},
	{Doc: `{
  "name": "io.github.example/http-pkg",
  "description": "An npm package that serves streamable-http on a port",
  "version": "1.0.0",
  "packages": [{"registryType": "npm", "identifier": "@example/http-pkg", "version": "1.0.0", "transport": {"type": "streamable-http", "url": "http://localhost:{port}/mcp"},
    "packageArguments": [{"type": "named", "name": "--port", "valueHint": "port", "default": "8080"}]}]
}`},
	{Doc: `{
  "name": "io.github.example/malware",
  "description": "Taken down by the registry",
  "version": "6.6.6",
  "packages": [{"registryType": "npm", "identifier": "@evil/malware", "version": "6.6.6", "transport": {"type": "stdio"}}]
}`, Meta: Meta{Status: "deleted"}},
	{Doc: `{
  "name": "io.github.example/long",
  "title": "Long",
  "description": "` + long + `",
  "version": "1.0.0",
  "packages": [{"registryType": "npm", "identifier": "@example/long", "version": "1.0.0", "transport": {"type": "stdio"}}]
}`},
}

// long is a description of one word, as long as the schema allows (100).
const long = "Averylongdescriptionwithoutanyspaceatallthatrunsonandonandonuntilitreachesthehundredcharacterlimit.."

func filesystem(version string) string {
	return `{
  "name": "io.github.modelcontextprotocol/filesystem",
  "title": "Filesystem",
  "description": "Node.js server implementing Model Context Protocol (MCP) for filesystem operations.",
  "version": "` + version + `",
  "repository": {"url": "https://github.com/modelcontextprotocol/servers", "source": "github"},
  "packages": [
    {"registryType": "npm", "registryBaseUrl": "https://registry.npmjs.org", "identifier": "@modelcontextprotocol/server-filesystem", "version": "` + version + `", "transport": {"type": "stdio"},
      "packageArguments": [{"type": "positional", "valueHint": "target_dir", "description": "Path to access", "default": "/Users/username/Desktop", "isRequired": true, "isRepeated": true}],
      "environmentVariables": [{"name": "LOG_LEVEL", "description": "Logging level (debug, info, warn, error)", "default": "info"}]},
    {"registryType": "oci", "registryBaseUrl": "https://docker.io", "identifier": "mcp/filesystem", "version": "` + version + `", "transport": {"type": "stdio"},
      "runtimeArguments": [{"type": "named", "description": "Mount a volume into the container", "name": "--mount", "value": "type=bind,src={source_path},dst={target_path}", "isRequired": true, "isRepeated": true,
        "variables": {"source_path": {"description": "Source path on host", "format": "filepath", "isRequired": true},
          "target_path": {"description": "Path to mount in the container. It should be rooted in /project directory.", "isRequired": true, "default": "/project"}}}],
      "packageArguments": [{"type": "positional", "valueHint": "target_dir", "value": "/project"}],
      "environmentVariables": [{"name": "LOG_LEVEL", "description": "Logging level (debug, info, warn, error)", "default": "info"}]}]
}`
}

// DatabaseManager is the spec's "Complex Docker Server with Multiple
// Arguments" without its first runtime argument, --network host.
const DatabaseManager = `{
  "name": "io.github.example/database-manager",
  "description": "MCP server for database operations with support for multiple database types",
  "version": "3.1.0",
  "repository": {"url": "https://github.com/example/database-manager-mcp", "source": "github"},
  "packages": [{"registryType": "oci", "registryBaseUrl": "https://docker.io", "identifier": "example/database-manager-mcp", "version": "3.1.0", "transport": {"type": "stdio"},
    "runtimeArguments": [` + dbType + `],
    "packageArguments": [
      {"type": "named", "name": "--host", "description": "Database host", "default": "localhost", "isRequired": true},
      {"type": "named", "name": "--port", "description": "Database port", "format": "number"},
      {"type": "positional", "valueHint": "database_name", "description": "Name of the database to connect to", "isRequired": true}],
    "environmentVariables": [
      {"name": "DB_USERNAME", "description": "Database username", "isRequired": true},
      {"name": "DB_PASSWORD", "description": "Database password", "isRequired": true, "isSecret": true},
      {"name": "SSL_MODE", "description": "SSL connection mode", "default": "prefer", "choices": ["disable", "prefer", "require"]}]}]
}`

const dbType = `{"type": "named", "name": "-e", "value": "DB_TYPE={db_type}", "description": "Database type to connect to", "isRepeated": true,
        "variables": {"db_type": {"description": "Type of database", "choices": ["postgres", "mysql", "mongodb", "redis"], "isRequired": true}}}`

// SpecDatabaseNetwork is the spec's database-manager example as it is,
// with "--network host" first among its runtime arguments.
const SpecDatabaseNetwork = `{
  "name": "io.github.example/database-manager",
  "description": "MCP server for database operations with support for multiple database types",
  "version": "3.1.0",
  "packages": [{"registryType": "oci", "identifier": "example/database-manager-mcp", "version": "3.1.0", "transport": {"type": "stdio"},
    "runtimeArguments": [{"type": "named", "name": "--network", "value": "host", "description": "Use host network mode"}, ` + dbType + `]}]
}`
