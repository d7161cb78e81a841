import { Placeholder } from '../components/Placeholder';

export function ChatPage() {
  return (
    <Placeholder title="Chat">
      <p>Chat with any model — OpenAI-compatible, Anthropic, or a local Ollama or LM Studio — using the tools of your MCP servers.</p>
      <p>Tool calls show up as cards you can approve, and conversations are kept on this machine.</p>
    </Placeholder>
  );
}
