// The server edit form's state and the rules only the form has (rows,
// seconds); everything else is checked by the Go side with config.json's
// own rules (CheckServerForm) and shown under the field a problem names.
import type { gui } from './backend';

export type Transport = 'stdio' | 'http' | 'sse';

export const TRANSPORTS: { value: Transport; label: string }[] = [
  { value: 'stdio', label: 'Local program (stdio)' },
  { value: 'http', label: 'Streamable HTTP' },
  { value: 'sse', label: 'SSE (older HTTP)' },
];

/**
 * KeyValue is one environment variable or header row: Go's KeyValueView
 * (whose secretRef is the ${secret:NAME} of a value stored before, kept
 * while value stays empty) with the id React keys the row by.
 */
export interface KeyValue extends gui.KeyValueView {
  id: number;
}

/** Row is one argument. */
export interface Row {
  id: number;
  value: string;
}

/** FormState is what the form edits; timeouts are text in seconds as typed. */
export interface FormState {
  name: string;
  transport: Transport;
  command: string;
  args: Row[];
  env: KeyValue[];
  cwd: string;
  envFile: string;
  url: string;
  headers: KeyValue[];
  startupTimeout: string;
  toolTimeout: string;
  enabled: boolean;
  /** The tools offered and left out, as typed: names separated by commas or spaces. */
  includeTools: string;
  excludeTools: string;
}

/** Field is where a problem is shown. */
export type Field = 'name' | 'transport' | 'command' | 'args' | 'env' | 'cwd' | 'envFile' | 'url' | 'headers' | 'startupTimeout' | 'toolTimeout' | 'includeTools' | 'excludeTools' | 'form';

export type Problems = Partial<Record<Field, string[]>>;

let nextId = 1;
/** newId keys a new row (list keys must outlive a reorder). */
export function newId(): number {
  return nextId++;
}

export function emptyKeyValue(): KeyValue {
  return { id: newId(), key: '', value: '', secret: false, secretRef: '' };
}

function seconds(ms: number): string {
  return ms > 0 ? String(ms / 1000) : '';
}

/** fromView makes the form's state from the Go side's view of an entry. */
export function fromView(v: gui.ServerFormView): FormState {
  const kv = (rows: gui.KeyValueView[] | null | undefined): KeyValue[] =>
    (rows ?? []).map((r) => ({ id: newId(), key: r.key, value: r.value, secret: r.secret, secretRef: r.secretRef }));
  return {
    name: v.name,
    transport: (['stdio', 'http', 'sse'].includes(v.transport) ? v.transport : 'stdio') as Transport,
    command: v.command,
    args: (v.args ?? []).map((a) => ({ id: newId(), value: a })),
    env: kv(v.env),
    cwd: v.cwd,
    envFile: v.envFile ?? '',
    url: v.url,
    headers: kv(v.headers),
    startupTimeout: seconds(v.startupTimeoutMs),
    toolTimeout: seconds(v.toolTimeoutMs),
    enabled: v.enabled,
    includeTools: (v.includeTools ?? []).join(', '),
    excludeTools: (v.excludeTools ?? []).join(', '),
  };
}

/** toolNames reads a list of tool names as typed: separated by commas, spaces or lines. */
export function toolNames(text: string): string[] {
  return text.split(/[\s,]+/).filter((n) => n !== '');
}

/** parseSeconds reads a timeout as typed: "" is the default (0), else a positive number of seconds. */
export function parseSeconds(text: string): { ms: number; error: string } {
  const t = text.trim();
  if (t === '') return { ms: 0, error: '' };
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0) return { ms: 0, error: 'must be a positive number of seconds, or empty for the default' };
  return { ms: Math.round(n * 1000), error: '' };
}

/**
 * localProblems are what only the form can get wrong (a timeout that is not
 * a number); the Go side checks the rest.
 */
export function localProblems(f: FormState): Problems {
  const out: Problems = {};
  for (const field of ['startupTimeout', 'toolTimeout'] as const) {
    const { error } = parseSeconds(f[field]);
    if (error) out[field] = [error];
  }
  return out;
}

/** toView is the form as the Go side takes it back (base: the entry as loaded). */
export function toView(f: FormState, base: string, configPath = ''): gui.ServerFormView {
  const kv = (rows: KeyValue[]): gui.KeyValueView[] =>
    rows.map((r) => ({ key: r.key.trim(), value: r.value, secret: r.secret, secretRef: r.secret ? r.secretRef : '' }));
  return {
    name: f.name.trim(),
    transport: f.transport,
    command: f.command.trim(),
    args: f.args.map((a) => a.value),
    env: kv(f.env),
    cwd: f.cwd.trim(),
    envFile: f.envFile.trim(),
    url: f.url.trim(),
    headers: kv(f.headers),
    startupTimeoutMs: parseSeconds(f.startupTimeout).ms,
    toolTimeoutMs: parseSeconds(f.toolTimeout).ms,
    enabled: f.enabled,
    includeTools: toolNames(f.includeTools),
    excludeTools: toolNames(f.excludeTools),
    json: '',
    base,
    configPath,
  };
}

/**
 * fieldOf maps a problem's JSON path in the entry ("command", "env.TOKEN",
 * 'env["A=B"]', "args[2]", "defaultToolTimeout") to the form field that
 * shows it.
 */
export function fieldOf(path: string): Field {
  const head = path.split(/[.[]/, 1)[0];
  switch (head) {
    case 'name':
    case 'command':
    case 'args':
    case 'env':
    case 'cwd':
    case 'envFile':
    case 'url':
    case 'headers':
    case 'startupTimeout':
    case 'includeTools':
    case 'excludeTools':
      return head;
    case 'serverUrl':
    case 'httpUrl':
      return 'url';
    case 'type':
    case 'transport':
      return 'transport';
    case 'defaultToolTimeout':
      return 'toolTimeout';
  }
  return 'form';
}

/** keyOf is the variable or header a path names ("env.TOKEN" → TOKEN, 'env["A=B"]' → A=B), or "". */
export function keyOf(path: string): string {
  const m = /^[a-zA-Z]+(?:\.(.+)|\["((?:[^"\\]|\\.)*)"\])$/.exec(path);
  if (!m) return '';
  return m[1] ?? JSON.parse(`"${m[2]}"`);
}

/** groupProblems puts each problem under its field; a row's problem names its key; a warning (saved as it is) says so. */
export function groupProblems(ps: gui.FieldProblemView[]): Problems {
  const out: Problems = {};
  for (const p of ps) {
    const field = fieldOf(p.field);
    const key = field === 'env' || field === 'headers' ? keyOf(p.field) : '';
    const said = p.warning ? `Warning: ${p.message}` : p.message;
    const text = key ? `${key}: ${said}` : field === 'form' && p.field ? `${p.field}: ${said}` : said;
    (out[field] ??= []).push(text);
  }
  return out;
}

/** jsonProblemText renders a JSON-mode problem as "Line 3, column 19: path: message". */
export function jsonProblemText(p: gui.FieldProblemView): string {
  const at = p.line > 0 ? `Line ${p.line}, column ${p.col}: ` : '';
  return `${at}${p.field ? `${p.field}: ` : ''}${p.message}`;
}

/** move returns list with item i moved by delta (−1 up, +1 down), unchanged at an end. */
export function move<T>(list: T[], i: number, delta: number): T[] {
  const j = i + delta;
  if (j < 0 || j >= list.length) return list;
  const out = list.slice();
  out[i] = list[j] as T;
  out[j] = list[i] as T;
  return out;
}

/** savedText says how a save went: the server running with its tools, or its error. */
export function savedText(v: gui.ServerSaveView): string {
  const s = v.server;
  switch (s.state) {
    case 'ready': {
      const unknown = v.unknownTools ?? [];
      const note = unknown.length === 0 ? ''
        : ` It has no tool named ${unknown.map((n) => `"${n}"`).join(', ')}: check the names under Offer only / Leave out (they are the server's own, without ${s.name}__).`;
      return `Saved. ${s.name} is running with ${v.tools} ${v.tools === 1 ? 'tool' : 'tools'}.${note}`;
    }
    case 'disabled':
      return `Saved. ${s.name} is disabled; enable it to start it.`;
    case 'needs-login':
      return `Saved. ${s.name} needs you to log in: press Log in in its row.`;
  }
  return `Saved, but ${s.name} did not start: ${s.error || s.state}`;
}
