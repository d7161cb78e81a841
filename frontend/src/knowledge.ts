// The Knowledge page talks to the built-in content store through the same
// tool calls a model makes (content-store__*), via the CallTool binding.
import { AddDocument, call } from './backend';
import { isNumber, isRecord, isString } from './json';
import { callTool } from './servers';

// The content store's replies are JSON text in a tool result: the Go types
// (builtin/contentstore Info, Hit, Excerpt) are not bound, so Wails makes
// no TypeScript for them. These are the fields the page shows, read from
// the parsed JSON by the parsers below, never cast.

export interface StoreInfo {
  id: string;
  name: string;
  description: string;
  documents: number;
  chunks: number;
  bytes: number;
}

export interface Hit {
  storeId: string;
  contentId: string;
  title: string;
  section: string;
  score: number;
  fromLine: number;
  toLine: number;
  matchLines: number[];
  snippet: string;
}

export interface Excerpt {
  contentId: string;
  title: string;
  fromLine: number;
  toLine: number;
  text: string;
}

// Fields Go leaves out when empty (omitempty) read as empty.
const str = (v: unknown): string => (isString(v) ? v : '');
const num = (v: unknown): number => (isNumber(v) ? v : 0);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.filter(isNumber) : []);

/** parseStore reads one store's info; null unless it is an object with an id. */
export function parseStore(v: unknown): StoreInfo | null {
  if (!isRecord(v) || !isString(v.id) || !v.id) return null;
  return { id: v.id, name: str(v.name), description: str(v.description), documents: num(v.documents), chunks: num(v.chunks), bytes: num(v.bytes) };
}

/** parseStores reads listStores' reply: {stores: [...]} or, from older servers, the bare list. */
export function parseStores(v: unknown): StoreInfo[] {
  const list = isRecord(v) ? v.stores : v;
  return Array.isArray(list) ? list.map(parseStore).filter((s): s is StoreInfo => s !== null) : [];
}

/** parseHit reads one search hit; null unless it names the content it is from. */
export function parseHit(v: unknown): Hit | null {
  if (!isRecord(v) || !isString(v.contentId) || !v.contentId) return null;
  return {
    storeId: str(v.storeId), contentId: v.contentId, title: str(v.title), section: str(v.section), score: num(v.score),
    fromLine: num(v.fromLine), toLine: num(v.toLine), matchLines: nums(v.matchLines), snippet: str(v.snippet),
  };
}

/** parseHits reads search's reply ({hits: [...]}). */
export function parseHits(v: unknown): Hit[] {
  const hits = isRecord(v) ? v.hits : undefined;
  return Array.isArray(hits) ? hits.map(parseHit).filter((h): h is Hit => h !== null) : [];
}

/** parseExcerpt reads readContent's reply; null unless it has text. */
export function parseExcerpt(v: unknown): Excerpt | null {
  if (!isRecord(v) || !isString(v.text)) return null;
  return { contentId: str(v.contentId), title: str(v.title), fromLine: num(v.fromLine), toLine: num(v.toLine), text: v.text };
}

/** tool calls a content-store tool and parses its JSON text result (unknown until a parser reads it). */
async function tool(name: string, args: object): Promise<unknown> {
  const res = await callTool(`content-store__${name}`, JSON.stringify(args));
  const text = res.content.map((c) => c.text).join('');
  if (res.isError) throw new Error(text || `${name} failed`);
  return JSON.parse(text);
}

/** parsed calls tool and reads its reply with parse, failing when the reply is not what parse expects. */
async function parsed<T>(name: string, args: object, parse: (v: unknown) => T | null): Promise<T> {
  const v = parse(await tool(name, args));
  if (v === null) throw new Error(`${name}: unexpected reply`);
  return v;
}

export const listStores = async (): Promise<StoreInfo[]> => parseStores(await tool('listStores', {}));
export const createStore = (name: string, description: string) => parsed('createStore', { name, description }, parseStore);
export const deleteStore = async (storeId: string): Promise<void> => { await tool('deleteStore', { storeId }); };
export const search = async (query: string, storeId?: string): Promise<Hit[]> =>
  parseHits(await tool('search', storeId ? { query, storeId, limit: 20 } : { query, limit: 20 }));
export const readContent = (contentId: string, fromLine: number, toLine: number) =>
  parsed('readContent', { contentId, fromLine, toLine }, parseExcerpt);

const FORMATS: Record<string, string> = { md: 'md', markdown: 'md', html: 'html', htm: 'html', json: 'json', csv: 'csv', txt: 'txt', text: 'txt', log: 'txt' };
const CODE = /\.(go|js|mjs|ts|tsx|jsx|py|rs|java|c|h|cpp|cs|rb|php|sh|sql|yaml|yml|toml|css|kt|swift)$/i;

/** formatOf picks the content store format from a file name. */
export function formatOf(fileName: string): string {
  const ext = fileName.split('.').pop()?.toLowerCase() ?? '';
  if (CODE.test(fileName)) return 'code';
  return FORMATS[ext] ?? 'txt';
}

/** addFile sends one file's text to a store; binary files are refused here. */
/** BINARY are formats the content store reads from the file itself (the browser cannot read them as text). */
const BINARY = /\.pdf$/i;

export async function addFile(storeId: string, file: File): Promise<void> {
  if (BINARY.test(file.name)) {
    const data = toBase64(new Uint8Array(await file.arrayBuffer()));
    const res = await call(() => AddDocument(storeId, file.name, data));
    const text = res.content.map((c) => c.text).join('');
    if (res.isError) throw new Error(text || `adding ${file.name} failed`);
    return;
  }
  const text = await file.text();
  if (text.includes('\u0000')) throw new Error(`${file.name} looks binary; add PDF, text, Markdown, HTML, JSON, CSV or source files`);
  await tool('addContent', { storeId, text, title: file.name, format: formatOf(file.name) });
}

/** toBase64 encodes bytes in chunks (a spread of a large array overflows the stack). */
export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** snippetParts splits a snippet with <mark>…</mark> into plain and marked runs. */
export function snippetParts(snippet: string): { text: string; mark: boolean }[] {
  const out: { text: string; mark: boolean }[] = [];
  const re = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > last) out.push({ text: snippet.slice(last, m.index), mark: false });
    out.push({ text: m[1] ?? '', mark: true });
    last = m.index + m[0].length;
  }
  if (last < snippet.length) out.push({ text: snippet.slice(last), mark: false });
  return out;
}

/** Doc is one document of a store, as listContent lists it. */
export interface Doc {
  contentId: string;
  title: string;
  path: string;
  format: string;
  bytes: number;
  chunks: number;
  added: string;
}

/** parseDocs reads listContent's reply ({documents: [...]}); entries without a contentId are left out. */
export function parseDocs(v: unknown): Doc[] {
  const list = isRecord(v) ? v.documents : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d) => (isRecord(d) && isString(d.contentId) && d.contentId
    ? [{ contentId: d.contentId, title: str(d.title), path: str(d.path), format: str(d.format), bytes: num(d.bytes), chunks: num(d.chunks), added: str(d.added) }]
    : []));
}

export const listDocs = async (storeId: string): Promise<Doc[]> => parseDocs(await tool('listContent', { storeId }));
export const removeDoc = async (contentId: string): Promise<void> => { await tool('deleteContent', { contentId }); };
export const reindexDoc = async (contentId: string): Promise<void> => { await tool('reindexContent', { contentId }); };
