// "Edit as JSON" after typing in the form: the entry as config.json would
// hold it, built from the form the way the Go side builds a save
// (app/gui ServersPage.edit, config.Server's MarshalJSON key order).
import type { FormState, KeyValue } from '../../serverform';
import { parseSeconds, toolNames } from '../../serverform';

/** ORDER is config.Server's key order; other keys of the entry follow, as they were. */
const ORDER = ['id', 'type', 'command', 'args', 'env', 'cwd', 'envFile', 'url', 'headers', 'disabled', 'stderr', 'encoding', 'roots',
  'sandbox', 'oauth', 'includeTools', 'excludeTools', 'restart', 'defaultToolTimeout', 'startupTimeout'];

/**
 * formJSON is the entry base (as loaded, JSON) with the form's fields over
 * it, indented as the editor shows it; null when the form holds a new
 * secret value, which must not be written into the entry's text (a secret
 * kept before is written as its ${secret:…} reference).
 */
export function formJSON(f: FormState, base: string): string | null {
  let entry: Record<string, unknown> = {};
  try {
    const parsed: unknown = base.trim() ? JSON.parse(base) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) entry = parsed as Record<string, unknown>;
  } catch {
    // A base that is not plain JSON: the form alone.
  }
  const rows = (kv: KeyValue[]): Record<string, string> | null => {
    const out: Record<string, string> = {};
    for (const r of kv) {
      const key = r.key.trim();
      if (!key) continue;
      if (r.secret && r.value !== '') return null;
      out[key] = r.secret ? r.secretRef : r.value;
    }
    return out;
  };
  const stdio = f.transport === 'stdio';
  const env = stdio ? rows(f.env) : {};
  const headers = stdio ? {} : rows(f.headers);
  if (env === null || headers === null) return null;
  const set: Record<string, unknown> = {
    // A new entry without a type is a local program; a type already written stays written.
    type: stdio && !('type' in entry) ? undefined : f.transport,
    command: stdio ? f.command.trim() || undefined : undefined,
    args: stdio && f.args.length > 0 ? f.args.map((a) => a.value) : undefined,
    env: Object.keys(env).length > 0 ? env : undefined,
    cwd: stdio ? f.cwd.trim() || undefined : undefined,
    envFile: stdio ? f.envFile.trim() || undefined : undefined,
    url: stdio ? undefined : f.url.trim() || undefined,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    disabled: f.enabled ? undefined : true,
    includeTools: nonEmpty(toolNames(f.includeTools)),
    excludeTools: nonEmpty(toolNames(f.excludeTools)),
    defaultToolTimeout: parseSeconds(f.toolTimeout).ms || undefined,
    startupTimeout: parseSeconds(f.startupTimeout).ms || undefined,
  };
  const merged: Record<string, unknown> = {};
  for (const k of ORDER) {
    const v = k in set ? set[k] : entry[k];
    if (v !== undefined) merged[k] = v;
  }
  for (const [k, v] of Object.entries(entry)) if (!(k in merged) && !ORDER.includes(k)) merged[k] = v;
  // A new entry keeps "command" even when empty: it is what there is to fill in.
  if (Object.keys(merged).length === 0) merged.command = '';
  return JSON.stringify(merged, null, 2);
}

function nonEmpty(list: string[]): string[] | undefined {
  return list.length > 0 ? list : undefined;
}
