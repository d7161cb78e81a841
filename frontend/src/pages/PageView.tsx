import type { PageId } from '../pages';
import { AgentsPage } from './agents/AgentsPage';
import { AppsPage } from './apps/AppsPage';
import { ChatPage } from './chat/ChatPage';
import { KnowledgePage } from './knowledge/KnowledgePage';
import { ServersPage } from './servers/ServersPage';
import { SettingsPage } from './settings/SettingsPage';
import { SkillsPage } from './skills/SkillsPage';
import { ToolsPage } from './tools/ToolsPage';
import { WorkspacePage } from './workspace/WorkspacePage';

const VIEWS: Record<PageId, () => React.JSX.Element> = {
  chat: ChatPage,
  servers: ServersPage,
  tools: ToolsPage,
  knowledge: KnowledgePage,
  workspace: WorkspacePage,
  agents: AgentsPage,
  skills: SkillsPage,
  settings: SettingsPage,
  apps: AppsPage,
};

/** PageView renders the page with the given id. */
export function PageView({ page }: { page: PageId }) {
  const View = VIEWS[page];
  return <View />;
}
