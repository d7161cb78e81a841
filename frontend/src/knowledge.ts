// The Knowledge page talks to the built-in content store through the same
// tool calls a model makes (content-store__*), via the CallTool binding.
import { AddDocument, call } from './backend';
import { callTool } from './servers';

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

/** tool calls a content-store tool and parses its JSON text result. */
async function tool<T>(name: string, args: object): Promise<T> {
  const res = await callTool(`content-store__${name}`, JSON.stringify(args));
  const text = res.content.map((c) => c.text).join('');
  if (res.isError) throw new Error(text || `${name} failed`);
  return JSON.parse(text) as T;
}

export async function listStores(): Promise<StoreInfo[]> {
  const r = await tool<{ stores: StoreInfo[] } | StoreInfo[]>('listStores', {});
  return Array.isArray(r) ? r : (r.stores ?? []);
}

export const createStore = (name: string, description: string) => tool<StoreInfo>('createStore', { name, description });
export const deleteStore = (storeId: string) => tool<unknown>('deleteStore', { storeId });
export const search = (query: string, storeId?: string) =>
  tool<{ hits: Hit[] }>('search', storeId ? { query, storeId, limit: 20 } : { query, limit: 20 }).then((r) => r.hits ?? []);
export const readContent = (contentId: string, fromLine: number, toLine: number) =>
  tool<Excerpt>('readContent', { contentId, fromLine, toLine });

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
  await tool<unknown>('addContent', { storeId, text, title: file.name, format: formatOf(file.name) });
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
