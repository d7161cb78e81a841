import { Placeholder } from '../components/Placeholder';

export function ServersPage() {
  return (
    <Placeholder title="Servers">
      <p>Your MCP servers, each with its status, transport, tool count and log.</p>
      <p>Import the <code>mcpServers</code> JSON you already use in Claude Desktop, Cursor or VS Code, and enable, disable or restart servers here.</p>
    </Placeholder>
  );
}
