import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { AppLog, AppSample, call, CallAppTool, DescribeAppDownload, OpenApp, OpenAppLink, ReadAppResource, SaveAppDownload, SendMessage, SetModelContext } from '../backend';
import { clampHeight, onThemeChange, partialArgs, styleVariables, theme, type ToolAppInfo } from './toolApps';
import { showing } from './onScreen';
import { answerAppRequests, DISPLAY_MODES, fileSize, gestureIn, hostCapabilities2026, type DisplayMode, type DownloadFile } from './requests';
import { isRecord } from '../json';

/** What a tool call looks like to its app. */
export interface AppCall {
  args: string; // the tool's arguments as JSON
  result?: unknown; // the CallToolResult, once there is one
  status: string; // streaming | pending | running | done | error | denied | cancelled
}

type Ask = { kind: 'link' | 'message' | 'download'; text: string; files?: DownloadFile[]; answer: (ok: boolean) => void };

const ASK_LABEL: Record<Ask['kind'], string> = {
  link: 'The app wants to open a link', message: 'The app wants to send a message', download: 'The app wants to save a file',
};

const HOST = { name: 'Switchboard', version: '1' };

/** goCall runs a binding; Wails rejects with a string, the bridge needs an Error (its message is the JSON-RPC error's). */
function goCall<T>(fn: () => Promise<T>): Promise<T> {
  return call(fn).catch((e: unknown) => { throw e instanceof Error ? e : new Error(String(e)); });
}
const TEARDOWN_MS = 1500;

/**
 * AppFrame renders a tool's MCP App: the sandbox proxy page (127.0.0.1 on a
 * random port, never the window's origin) in a frame, the app's HTML in
 * the proxy's inner frame (sandboxed without allow-same-origin, under the
 * CSP Go built from the resource's _meta.ui.csp), and the official
 * AppBridge between them and the host. Calls from the app go to its own
 * server through Go, under the chat's approval policy.
 */
export function AppFrame({ app, call: tc, chatId }: { app: ToolAppInfo; call: AppCall; chatId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const ready = useRef(false);
  const sent = useRef<{ input: boolean; result: boolean; cancelled: boolean }>({ input: false, result: false, cancelled: false });
  const latest = useRef(tc);
  latest.current = tc;
  const [height, setHeight] = useState(160);
  const [error, setError] = useState('');
  const [mode, setMode] = useState<DisplayMode>('inline');
  // ended: the app asked to be closed (request-teardown) and was; again counts "Show it again".
  const [ended, setEnded] = useState(false);
  const [again, setAgain] = useState(0);
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const [ask, setAsk] = useState<Ask | null>(null);
  const ctxRef = useRef<McpUiHostContext>({});
  // setDisplay switches inline/fullscreen/pip and tells the app (host-context-changed).
  const setDisplay = (next: DisplayMode) => {
    setMode(next);
    ctxRef.current = { ...ctxRef.current, displayMode: next };
    bridgeRef.current?.setHostContext(ctxRef.current);
  };

  // Sends what the app has not been told yet: input, then result or cancellation.
  const flush = () => {
    const b = bridgeRef.current;
    const c = latest.current;
    if (!b || !ready.current) return;
    const s = sent.current;
    if (!s.input && c.status === 'streaming') {
      const partial = partialArgs(c.args);
      if (partial) void b.sendToolInputPartial({ arguments: partial });
    }
    if (!s.input && c.status !== 'streaming') {
      s.input = true;
      let args: Record<string, unknown> = {};
      try {
        const v: unknown = JSON.parse(c.args || '{}');
        if (isRecord(v)) args = v;
      } catch { /* partial JSON: an empty object */ }
      void b.sendToolInput({ arguments: args });
    }
    if (s.input && !s.result && !s.cancelled && c.result && (c.status === 'done' || c.status === 'error')) {
      s.result = true;
      void b.sendToolResult(c.result as Parameters<AppBridge['sendToolResult']>[0]);
    }
    if (!s.result && !s.cancelled && (c.status === 'cancelled' || c.status === 'denied')) {
      s.cancelled = true;
      void b.sendToolCancelled({ reason: c.status === 'denied' ? 'The user denied the tool call.' : 'The tool call was cancelled.' });
    }
  };

  useEffect(flush, [tc.status, tc.result, tc.args]);

  // The tool's definition as the app starts (its toolInfo): a server listing the tool anew
  // does not restart a running app.
  const toolJson = useEffectEvent(() => app.toolJson);

  useEffect(() => {
    let gone = false;
    let bridge: AppBridge | null = null;
    let frame: HTMLIFrameElement | null = null;
    let stopTheme = () => {};
    let hidden = () => {};
    let tornDown: Promise<unknown> | null = null;
    // ui/resource-teardown, once: the app may save; bounded, as an app may never answer.
    const tearDown = (b: AppBridge) => {
      tornDown ??= Promise.race([b.teardownResource({}), new Promise((r) => setTimeout(r, TEARDOWN_MS))]);
      return tornDown;
    };
    const confirm = (kind: Ask['kind'], text: string, files?: DownloadFile[]) => new Promise<boolean>((resolve) => {
      setAsk({ kind, text, files, answer: (ok) => { setAsk(null); resolve(ok); } });
    });
    // The app asked to be closed: ui/resource-teardown first (it may save), then the frame goes and the card says so.
    let closed = false;
    const closeApp = () => {
      const b = bridge;
      if (closed || gone || !b) return;
      closed = true;
      hidden();
      stopTheme();
      ready.current = false;
      setDisplay('inline');
      setAsk(null); // a question of the app that went is not the next one's
      bridgeRef.current = null;
      const f = frame;
      const done = () => { void b.close(); f?.remove(); if (!gone) setEnded(true); };
      tearDown(b).then(done, done);
    };
    (async () => {
      const view = await goCall(() => OpenApp(app.server, app.resourceUri));
      if (gone || !box.current) return;
      frame = document.createElement('iframe');
      frame.title = `App of ${app.server}: ${app.tool}`;
      frame.className = 'app-frame';
      // The proxy's own origin (127.0.0.1:port) is not the window's.
      frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
      if (view.allow) frame.setAttribute('allow', view.allow);
      frame.setAttribute('referrerpolicy', 'no-referrer');
      frame.dataset.testid = 'app-frame';
      const proxyReady = new Promise<void>((resolve) => {
        const h = (e: MessageEvent) => {
          if (e.source === frame?.contentWindow && e.data?.method === 'ui/notifications/sandbox-proxy-ready') {
            window.removeEventListener('message', h);
            resolve();
          }
        };
        window.addEventListener('message', h);
      });
      frame.src = view.proxyUrl;
      box.current.appendChild(frame);
      await proxyReady;
      if (gone) return;
      let tool: unknown = undefined;
      try { tool = JSON.parse(toolJson()); } catch { /* no toolInfo */ }
      const ctx = {
        theme: theme(), displayMode: 'inline', availableDisplayModes: DISPLAY_MODES,
        containerDimensions: { maxHeight: 720 }, locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, platform: 'desktop',
        styles: { variables: styleVariables() },
        ...(tool ? { toolInfo: { tool } } : {}),
      } as McpUiHostContext;
      ctxRef.current = ctx;
      bridge = new AppBridge(null, HOST, {
        openLinks: {}, serverTools: {}, serverResources: {}, logging: {},
        updateModelContext: { text: {} }, message: { text: {} }, ...hostCapabilities2026,
        sandbox: { csp: view.csp ?? undefined, permissions: view.permissions as never },
      }, { hostContext: ctxRef.current });
      bridgeRef.current = bridge;
      bridge.oncalltool = async (p) => {
        const raw = await goCall(() => CallAppTool(chatId, app.server, p.name, JSON.stringify(p.arguments ?? {})));
        return JSON.parse(raw);
      };
      bridge.onreadresource = async (p) => JSON.parse(await goCall(() => ReadAppResource(app.server, p.uri)));
      bridge.onloggingmessage = (p) => { void goCall(() => AppLog(app.server, p.level, typeof p.data === 'string' ? p.data : JSON.stringify(p.data))); };
      bridge.onsizechange = ({ height: h }) => { if (h !== undefined) setHeight(clampHeight(h)); };
      bridge.onopenlink = async ({ url }) => {
        let u: URL;
        try { u = new URL(url); } catch { throw new Error('Invalid URL'); }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('Policy violation: only http and https links open');
        if (!(await confirm('link', u.href))) throw new Error('Link opening denied by user');
        await goCall(() => OpenAppLink(u.href));
        return {};
      };
      bridge.onmessage = async (p) => {
        const blocks = (Array.isArray(p.content) ? p.content : [p.content]) as { type: string; text?: string }[];
        const text = blocks.filter((c) => c?.type === 'text').map((c) => c.text ?? '').join('\n').trim();
        if (!text || !chatId) throw new Error('Message sending denied');
        if (!(await confirm('message', text))) throw new Error('Message sending denied by user');
        await goCall(() => SendMessage(chatId, text));
        return {};
      };
      bridge.onupdatemodelcontext = async (p) => {
        const blocks = (p.content ?? []) as { type: string; text?: string }[];
        let text = blocks.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
        if (p.structuredContent) text += (text ? '\n' : '') + JSON.stringify(p.structuredContent);
        if (chatId) await goCall(() => SetModelContext(chatId, app.server, app.resourceUri, text));
        return {};
      };
      answerAppRequests(bridge, {
        server: app.server, uri: app.resourceUri, chatId,
        describe: (json) => goCall(() => DescribeAppDownload(view.session, app.server, json)),
        confirm: (files) => confirm('download', files.map((f) => `${f.name} (${fileSize(f.size)})`).join(', '), files),
        save: (json, i) => goCall(() => SaveAppDownload(view.session, app.server, json, i)),
        sample: (json) => goCall(() => AppSample(chatId, app.server, app.resourceUri, json)),
        gesture: () => gestureIn(frame),
        mode: () => modeRef.current,
        setMode: setDisplay,
        close: closeApp,
      });
      bridge.oninitialized = () => { ready.current = true; flush(); };
      await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
      await bridge.sendSandboxResourceReady({ html: view.html, csp: view.csp ?? undefined, permissions: view.permissions as never });
      hidden = showing(async () => { if (bridge) await tearDown(bridge); });
      stopTheme = onThemeChange((t) => {
        ctxRef.current = { ...ctxRef.current, theme: t, styles: { variables: styleVariables() } } as McpUiHostContext;
        bridge?.setHostContext(ctxRef.current);
      });
    })().catch((e: unknown) => { if (!gone) setError(e instanceof Error ? e.message : String(e)); });
    return () => {
      gone = true;
      hidden();
      stopTheme();
      ready.current = false;
      sent.current = { input: false, result: false, cancelled: false };
      if (closed) return; // closeApp tore it down already
      const b = bridge;
      bridgeRef.current = null;
      const f = frame;
      if (!b) { f?.remove(); return; }
      // ui/resource-teardown first (unless tearDownApps sent it before the view changed), so the
      // app can save; the frame goes after its answer (or a short wait).
      const done = () => { void b.close(); f?.remove(); };
      tearDown(b).then(done, done);
    };
  }, [app.server, app.resourceUri, app.tool, chatId, again]);

  if (ended) {
    return (
      <div className="app-host app-ended" data-testid="app-host" data-mode="closed" role="status">
        <span>The app of {app.server} closed itself.</span>
        <button type="button" onClick={() => { setEnded(false); setAgain((n) => n + 1); }}>Show it again</button>
      </div>
    );
  }
  return (
    <>
      {mode === 'pip' && <p className="muted small app-away">The app of {app.server} is in the small window at the bottom right.</p>}
      <div className={`app-host ${mode === 'fullscreen' ? 'app-fullscreen' : ''} ${mode === 'pip' ? 'app-pip' : ''}`} data-testid="app-host" data-mode={mode}
        {...(mode === 'pip' ? { role: 'region', 'aria-label': `App of ${app.server} (picture-in-picture)` } : {})}>
        {mode === 'fullscreen' && (
          <button type="button" className="app-exit" onClick={() => setDisplay('inline')}>Exit full screen</button>
        )}
        {mode === 'pip' && (
          <div className="app-pip-bar">
            <span className="small">App of {app.server}</span>
            <button type="button" className="app-exit" onClick={() => setDisplay('inline')}>Back into the chat</button>
          </div>
        )}
        {error && <p className="error small" role="alert">The app could not be shown: {error}</p>}
        <div ref={box} className="app-box" style={mode === 'inline' ? { height } : undefined} />
        {ask && (
          <div className="app-ask" role="alertdialog" aria-label={ASK_LABEL[ask.kind]}>
            <span>{ask.kind === 'link' ? 'The app wants to open ' : ask.kind === 'message' ? 'The app wants to send this message to the chat: '
              : `The app wants to save ${ask.files && ask.files.length > 1 ? `these ${ask.files.length} files` : 'this file'} on your computer (Save… asks where): `}</span>
            <code>{ask.text}</code>
            <div className="row">
              <button type="button" className="primary" autoFocus onClick={() => ask.answer(true)}>{ask.kind === 'link' ? 'Open link' : ask.kind === 'message' ? 'Send' : 'Save…'}</button>
              <button type="button" onClick={() => ask.answer(false)}>Cancel</button>
            </div>
          </div>
        )}
      </div>
    </>
  );
}

