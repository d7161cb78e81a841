// The Knowledge page talks to the built-in content store through the same
// tool calls a model makes (content-store__*), via the CallTool binding.
import { AddDocument, CancelDocument, call, hasMethod } from './backend';
import { isNumber, isRecord, isString } from './json';
import { bytes, count } from './plural';
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
  /** error says why the store cannot be used now ("" when it can). */
  error: string;
  /** inUse: another program has the store (error names it); the counts are those it last had. */
  inUse: boolean;
  /** interrupted says what an add cut short by a crash left out ("" when none was). */
  interrupted: string;
  /** note says what a store made by an earlier version lacks. */
  note: string;
}

/** StoreList is listStores' reply: the stores and the largest file a store takes. */
export interface StoreList {
  stores: StoreInfo[];
  maxFileBytes: number;
}

/** DEFAULT_MAX_FILE_BYTES is the content store's limit when a reply does not say it (10 MB). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

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
  /** more: the document goes on after the text. */
  more: boolean;
  /** note says why the text stops early (a read's size limit). */
  note: string;
}

/** SearchResult is search's reply: the hits, and why nothing could match or which stores were not searched. */
export interface SearchResult {
  hits: Hit[];
  note: string;
  unavailable: string[];
}

// Fields Go leaves out when empty (omitempty) read as empty.
const str = (v: unknown): string => (isString(v) ? v : '');
const num = (v: unknown): number => (isNumber(v) ? v : 0);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.filter(isNumber) : []);

/** parseStore reads one store's info; null unless it is an object with an id. */
export function parseStore(v: unknown): StoreInfo | null {
  if (!isRecord(v) || !isString(v.id) || !v.id) return null;
  const interrupted = isRecord(v.interrupted) ? str(v.interrupted.message) : '';
  return {
    id: v.id, name: str(v.name), description: str(v.description), documents: num(v.documents), chunks: num(v.chunks), bytes: num(v.bytes),
    error: str(v.error), inUse: v.inUse === true, interrupted, note: str(v.note),
  };
}

/** parseStores reads listStores' reply: {stores: [...]} or, from older servers, the bare list. */
export function parseStores(v: unknown): StoreInfo[] {
  const list = isRecord(v) ? v.stores : v;
  return Array.isArray(list) ? list.map(parseStore).filter((s): s is StoreInfo => s !== null) : [];
}

/** parseStoreList reads listStores' reply with the largest file it takes (10 MB when it does not say). */
export function parseStoreList(v: unknown): StoreList {
  const max = isRecord(v) ? num(v.maxFileBytes) : 0;
  return { stores: parseStores(v), maxFileBytes: max > 0 ? max : DEFAULT_MAX_FILE_BYTES };
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

/** parseSearch reads search's reply: hits, the note (why nothing can match) and the stores not searched. */
export function parseSearch(v: unknown): SearchResult {
  const unavailable = isRecord(v) && Array.isArray(v.unavailable) ? v.unavailable.filter(isString) : [];
  return { hits: parseHits(v), note: isRecord(v) ? str(v.note) : '', unavailable };
}

/** parseExcerpt reads readContent's reply; null unless it has text. */
export function parseExcerpt(v: unknown): Excerpt | null {
  if (!isRecord(v) || !isString(v.text)) return null;
  return {
    contentId: str(v.contentId), title: str(v.title), fromLine: num(v.fromLine), toLine: num(v.toLine), text: v.text,
    more: v.more === true, note: str(v.note),
  };
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

export const listStores = async (): Promise<StoreList> => parseStoreList(await tool('listStores', {}));
export const createStore = (name: string, description: string) => parsed('createStore', { name, description }, parseStore);
export const deleteStore = async (storeId: string): Promise<void> => { await tool('deleteStore', { storeId }); };
export const search = async (query: string, storeId?: string): Promise<SearchResult> =>
  parseSearch(await tool('search', storeId ? { query, storeId, limit: 20 } : { query, limit: 20 }));
export const readContent = (contentId: string, fromLine: number, toLine: number) =>
  parsed('readContent', { contentId, fromLine, toLine }, parseExcerpt);

/**
 * tooLarge says why a file over the store's limit is not sent (null when it is within it), before
 * its bytes are read: the sizes (exact when they round alike) and what to do.
 */
export function tooLarge(name: string, size: number, max: number): string | null {
  if (size <= max) return null;
  let sizes = `${bytes(size)}; the content store takes files up to ${bytes(max)}`;
  if (bytes(size) === bytes(max)) sizes = `${size.toLocaleString('en')} bytes; the content store takes files up to ${max.toLocaleString('en')} bytes (${bytes(max)})`;
  return `${name} is ${sizes}. Split it into smaller files and add those.`;
}

/** Added is what adding one file did: its title, and whether it replaced the file added before under its name. */
export interface Added {
  title: string;
  replaced: boolean;
}

/** parseAdded reads addContent's reply for one file. */
export function parseAdded(v: unknown, fallback: string): Added {
  const c = isRecord(v) && Array.isArray(v.contents) ? v.contents[0] : undefined;
  return isRecord(c) ? { title: str(c.title) || fallback, replaced: c.replaced === true } : { title: fallback, replaced: false };
}

/**
 * addFile sends one file's bytes to a store, which reads them as it reads a file (its format and
 * encoding: Latin-1, UTF-16 and PDF too) and replaces a file added before under the same name. A file
 * over max is refused here, before it is read. id names the add for cancelAdd.
 */
export async function addFile(storeId: string, file: File, max: number, id: string): Promise<Added> {
  const refused = tooLarge(file.name, file.size, max);
  if (refused) throw new Error(refused);
  const data = toBase64(new Uint8Array(await file.arrayBuffer()));
  const res = await call(() => AddDocument(storeId, file.name, data, id));
  const text = res.content.map((c) => c.text).join('');
  if (res.isError) throw new Error(text || `adding ${file.name} failed`);
  try {
    return parseAdded(JSON.parse(text), file.name);
  } catch {
    return { title: file.name, replaced: false };
  }
}

/**
 * takeFiles returns the files picked in a file input and empties it: a browser fires no change
 * event when the same file is picked again into an input that still holds it.
 */
export function takeFiles(input: { files: ArrayLike<File> | null; value: string }): File[] {
  const files = Array.from(input.files ?? []);
  input.value = '';
  return files;
}

/** cancelAdd stops the add named id (its file is not added); false when none runs. */
export async function cancelAdd(id: string): Promise<boolean> {
  if (!hasMethod('ToolsPage', 'CancelDocument')) return false;
  return call(() => CancelDocument(id));
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
  /** file is the name of a file added from this window (its bytes; it has no path). */
  file: string;
  format: string;
  bytes: number;
  chunks: number;
  added: string;
}

/** DocPage is one page of a store's documents, newest first. */
export interface DocPage {
  docs: Doc[];
  total: number;
  offset: number;
  more: boolean;
}

/** PAGE_SIZE is how many documents the page lists at once. */
export const PAGE_SIZE = 100;

/** parseDocs reads listContent's reply ({documents: [...]}); entries without a contentId are left out. */
export function parseDocs(v: unknown): Doc[] {
  const list = isRecord(v) ? v.documents : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d) => (isRecord(d) && isString(d.contentId) && d.contentId
    ? [{ contentId: d.contentId, title: str(d.title), path: str(d.path), file: str(d.file), format: str(d.format), bytes: num(d.bytes), chunks: num(d.chunks), added: str(d.added) }]
    : []));
}

/** parseDocPage reads listContent's reply with its total; from older servers (no total), the list is the whole. */
export function parseDocPage(v: unknown): DocPage {
  const docs = parseDocs(v);
  if (!isRecord(v) || !isNumber(v.total)) return { docs, total: docs.length, offset: 0, more: false };
  return { docs, total: v.total, offset: num(v.offset), more: v.more === true };
}

/** pageLabel says which documents a page shows: "Showing 1–100 of 10,001". */
export function pageLabel(p: DocPage): string {
  if (p.docs.length === 0) return `Showing none of ${p.total.toLocaleString('en')}`;
  return `Showing ${(p.offset + 1).toLocaleString('en')}–${(p.offset + p.docs.length).toLocaleString('en')} of ${p.total.toLocaleString('en')}`;
}

export const listDocs = async (storeId: string, offset = 0, limit = PAGE_SIZE): Promise<DocPage> =>
  parseDocPage(await tool('listContent', { storeId, offset, limit }));
export const removeDoc = async (contentId: string): Promise<void> => { await tool('deleteContent', { contentId }); };

/** reindexDoc indexes a document again; it returns the note saying where its text came from when not its file ("" otherwise). */
export const reindexDoc = async (contentId: string): Promise<string> => {
  const v = await tool('reindexContent', { contentId });
  return isRecord(v) ? str(v.note) : '';
};

/** storeLine is what the store list says under a store's name: its counts, or why it cannot be used now. */
export function storeLine(s: StoreInfo): string {
  if (s.inUse) return 'in use by another program';
  if (s.error) return 'cannot be opened';
  return `${count(s.documents, 'document')} · ${bytes(s.bytes)}`;
}

/** addSummary says what an add did: how many files went in, which replaced a file of the same name, and what a Cancel left out. */
export function addSummary(added: number, replaced: string[], notAdded: number): string {
  const parts: string[] = [];
  if (added > 0) parts.push(`Added ${count(added, 'file')}.`);
  if (replaced.length > 0) parts.push(`Replaced ${replaced.join(', ')}: ${replaced.length === 1 ? 'a file' : 'files'} of that name had been added before.`);
  if (notAdded > 0) parts.push(`Cancelled: ${count(notAdded, 'file')} not added.`);
  return parts.join(' ');
}

/** source says where a document came from: its file, a file added in the window (its bytes, not kept), or text. */
export function source(d: Doc): string {
  if (d.file) return `${d.file}, added here`;
  if (!d.path) return 'text';
  // Before files went as bytes, the window added a temporary copy by its path.
  if (/[\\/]switchboard-doc-[^\\/]+[\\/][^\\/]+$/.test(d.path)) return 'a file added here';
  return d.path;
}
