import type { PageId } from '../pages';
import { AgentsPage } from './AgentsPage';
import { ChatPage } from './ChatPage';
import { KnowledgePage } from './KnowledgePage';
import { ServersPage } from './ServersPage';
import { SettingsPage } from './SettingsPage';
import { ToolsPage } from './ToolsPage';
import { WorkspacePage } from './WorkspacePage';

const VIEWS: Record<PageId, () => React.JSX.Element> = {
  chat: ChatPage,
  servers: ServersPage,
  tools: ToolsPage,
  knowledge: KnowledgePage,
  workspace: WorkspacePage,
  agents: AgentsPage,
  settings: SettingsPage,
};

/** PageView renders the page with the given id. */
export function PageView({ page }: { page: PageId }) {
  const View = VIEWS[page];
  return <View />;
}
