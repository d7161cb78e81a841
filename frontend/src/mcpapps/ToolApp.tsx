import { lazy, Suspense, useEffect, useState } from 'react';
import { useChat, watchRequests } from '../chat';
import { ApprovalCard } from '../components/ApprovalCard';
import type { AppCall } from './AppFrame';
import { toolApp, type ToolAppInfo } from './toolApps';

// The app's frame and its bridge (the MCP Apps SDK) are loaded the first
// time a tool with an app shows one, not at start.
const AppFrame = lazy(() => import('./AppFrame').then((m) => ({ default: m.AppFrame })));

/**
 * ToolApp shows the app of a tool call when its tool has one (asked once
 * per tool name); otherwise nothing. chatId is where the app's approvals
 * and messages go ("" outside a chat).
 */
export function ToolApp({ name, call: tc, chatId }: { name: string; call: AppCall; chatId: string }) {
  const [app, setApp] = useState<ToolAppInfo | null>(null);
  useEffect(() => {
    let live = true;
    void toolApp(name).then((a) => { if (live) setApp(a); });
    return () => { live = false; };
  }, [name]);
  if (!app) return null;
  return (
    <>
      <Suspense fallback={<p className="muted small" role="status">Loading the app…</p>}>
        <AppFrame app={app} call={tc} chatId={chatId} />
      </Suspense>
      {!chatId && <ChatlessApprovals />}
    </>
  );
}

/** ChatlessApprovals shows approvals of app calls made outside a chat (the Tools page), where no chat shows them. */
function ChatlessApprovals() {
  useEffect(watchRequests, []);
  const mine = useChat((s) => s.approvals).filter((a) => !a.chatId);
  return <>{mine.map((a) => <ApprovalCard key={a.id} req={a} />)}</>;
}
