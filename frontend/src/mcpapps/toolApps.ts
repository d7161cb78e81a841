// MCP Apps (io.modelcontextprotocol/ui): which tools have an app, and the
// host context an app is given. The app itself runs in AppFrame.
import { call, hasBackend, ToolApp, type gui, type host } from '../backend';
import { isRecord } from '../json';

/** ToolAppInfo is what Go says of a tool's app (ToolApp's answer). */
export type ToolAppInfo = gui.AppToolView;

const known = new Map<string, Promise<ToolAppInfo | null>>();
/** withApp holds the tools toolApp found an app for, for synchronous checks (hasApp). */
const withApp = new Set<string>();

/** toolApp says whether the tool (server__tool) has an app; asked once per tool name. */
export function toolApp(name: string): Promise<ToolAppInfo | null> {
  if (!hasBackend() || !name.includes('__')) return Promise.resolve(null);
  let p = known.get(name);
  if (!p) {
    p = call(() => ToolApp(name)).then((v) => (v.resourceUri ? v : null), () => null);
    known.set(name, p);
    // A tool without an app may gain one (a server update): ask again later.
    p.then((v) => {
      if (v) withApp.add(name);
      else setTimeout(() => known.delete(name), 30_000);
    });
  }
  return p;
}

/** forgetToolApps drops what toolApp learned (the tool lists changed). */
export function forgetToolApps(): void {
  known.clear();
  withApp.clear();
}

/** hasApp says whether toolApp already found an app for the tool (false until it has asked). */
export function hasApp(name: string): boolean {
  return withApp.has(name);
}

const dark = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches;

/** theme is the window's colour scheme, which follows the OS. */
export function theme(): 'light' | 'dark' {
  return dark() ? 'dark' : 'light';
}

/** onThemeChange calls fn whenever the window's colour scheme changes; it returns the unsubscribe. */
export function onThemeChange(fn: (t: 'light' | 'dark') => void): () => void {
  const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
  if (!mq) return () => {};
  const h = () => fn(mq.matches ? 'dark' : 'light');
  mq.addEventListener('change', h);
  return () => mq.removeEventListener('change', h);
}

/** styleVariables are the spec's standard CSS variables, from the window's own theme. */
export function styleVariables(): Record<string, string> {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    '--color-background-primary': v('--surface'),
    '--color-background-secondary': v('--bg'),
    '--color-text-primary': v('--text'),
    '--color-text-secondary': v('--muted'),
    '--color-border-primary': v('--border'),
    '--color-ring-primary': v('--focus'),
    '--font-sans': css.fontFamily,
    '--border-radius-md': v('--radius'),
  };
}

/** clampHeight keeps an app's requested height within what a card shows. */
export function clampHeight(h: number | undefined, max = 720): number {
  if (!h || !Number.isFinite(h)) return 160;
  return Math.max(48, Math.min(Math.ceil(h), max));
}

/**
 * partialArgs recovers an object from a tool call's arguments while the
 * model is still streaming them: unclosed strings, arrays and objects are
 * closed (a dangling key or comma dropped). null when nothing usable.
 */
export function partialArgs(text: string): Record<string, unknown> | null {
  const parse = (s: string) => {
    try {
      const v: unknown = JSON.parse(s);
      return isRecord(v) ? v : null;
    } catch {
      return undefined;
    }
  };
  const whole = parse(text);
  if (whole !== undefined) return whole;
  const stack: string[] = [];
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') stack.pop();
  }
  const s = text + (inStr ? '"' : '');
  const close = [...stack].reverse().join('');
  // As it is; without a trailing comma; without a dangling key ("ke or "key": ).
  for (const c of [s, s.replace(/,\s*$/, ''), s.replace(/([,{])\s*"[^"]*"\s*:?\s*$/, '$1').replace(/,$/, '')]) {
    const v = parse(c + close);
    if (v !== undefined) return v;
  }
  return null;
}

/** ResultView is what the card has of a tool result: the parts of Go's host.CallResult an app is given. */
type ResultView = Pick<host.CallResult, 'isError' | 'content' | 'structured'>;

/**
 * toolResult turns a card's result view back into the MCP CallToolResult an
 * app expects (structuredContent as an object, content blocks as the spec
 * spells them): apps read structuredContent first.
 */
export function toolResult(r: ResultView): { content: Record<string, unknown>[]; structuredContent?: Record<string, unknown>; isError: boolean } {
  const content = (r.content ?? []).map((c): Record<string, unknown> => {
    switch (c.type) {
      case 'text':
        return { type: 'text', text: c.text };
      case 'image':
      case 'audio':
        return { type: c.type, data: c.data, mimeType: c.mimeType };
      case 'resource_link':
        return { type: 'resource_link', uri: c.uri, name: c.name, ...(c.title ? { title: c.title } : {}), ...(c.description ? { description: c.description } : {}), ...(c.mimeType ? { mimeType: c.mimeType } : {}) };
      case 'resource':
        return { type: 'resource', resource: c.data ? { uri: c.uri, mimeType: c.mimeType, blob: c.data } : { uri: c.uri, mimeType: c.mimeType, text: c.text } };
      default:
        return { type: 'text', text: c.text };
    }
  });
  let structuredContent: Record<string, unknown> | undefined;
  if (r.structured) {
    try {
      const v: unknown = JSON.parse(r.structured);
      if (isRecord(v)) structuredContent = v;
    } catch { /* not JSON: left out */ }
  }
  return { content, ...(structuredContent ? { structuredContent } : {}), isError: r.isError };
}
