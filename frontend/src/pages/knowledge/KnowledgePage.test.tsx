import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { KnowledgePage } from './KnowledgePage';

type Args = Record<string, unknown>;
const ok = (v: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(v) }], isError: false });
const fail = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

/**
 * bind stands in for the Go side: content-store__* tool calls answered by answer (by tool name), and
 * AddDocument / CancelDocument, recording every call.
 */
function bind(answer: (tool: string, args: Args) => unknown, addDocument?: (name: string) => unknown) {
  const calls: { method: string; args: Args }[] = [];
  window.go = {
    gui: {
      Window: { Info: async () => ({ name: 'Switchboard', version: 'dev', dataDir: '' }) },
      ToolsPage: {
        CallTool: async (name: string, json: string) => {
          const args = JSON.parse(json) as Args;
          const tool = name.replace('content-store__', '');
          calls.push({ method: tool, args });
          return answer(tool, args);
        },
        AddDocument: async (storeId: string, name: string, data: string, id: string) => {
          calls.push({ method: 'AddDocument', args: { storeId, name, data, id } });
          return addDocument ? addDocument(name) : ok({ added: 1, contents: [{ title: name }] });
        },
        CancelDocument: async (id: string) => { calls.push({ method: 'CancelDocument', args: { id } }); return true; },
      },
    },
  } as unknown as typeof window.go;
  return calls;
}

const store = { id: 'notes', name: 'Notes', description: '', analyzer: 'en', documents: 3, chunks: 3, bytes: 4096 };
const docs = (offset: number, n: number) => Array.from({ length: n }, (_, i) => ({
  contentId: `notes:${offset + i}`, title: `doc ${offset + i + 1}`, format: 'txt', bytes: 10, chunks: 1, added: '2026-01-01T00:00:00Z',
}));

/** basic answers the tools for one store of total documents (a few: a table of hundreds is slow to query in jsdom). */
function basic(extra: (tool: string, args: Args) => unknown = () => undefined, total = 3) {
  return (tool: string, args: Args) => {
    const v = extra(tool, args);
    if (v !== undefined) return v;
    switch (tool) {
      case 'listStores': return ok({ stores: [{ ...store, documents: total }], maxFileBytes: 1024 });
      case 'listContent': {
        const offset = Number(args.offset ?? 0);
        const n = Math.min(100, total - offset);
        return ok({ documents: docs(offset, n), total, offset, more: offset + n < total, nextOffset: offset + n });
      }
      case 'search': return ok({ query: args.query, total: 0, hits: [] });
    }
    return fail(`unexpected ${tool}`);
  };
}

describe('KnowledgePage', () => {
  // jsdom's Blob has no arrayBuffer(); the window's WebKit has. Read it through a FileReader.
  const had = Object.getOwnPropertyDescriptor(Blob.prototype, 'arrayBuffer');
  beforeAll(() => {
    if (had) return;
    Object.defineProperty(Blob.prototype, 'arrayBuffer', {
      configurable: true,
      value(this: Blob) {
        return new Promise<ArrayBuffer>((resolve, reject) => {
          const r = new FileReader();
          r.onload = () => resolve(r.result as ArrayBuffer);
          r.onerror = () => reject(r.error ?? new Error('read failed'));
          r.readAsArrayBuffer(this);
        });
      },
    });
  });
  afterAll(() => {
    if (!had) delete (Blob.prototype as { arrayBuffer?: unknown }).arrayBuffer;
  });
  afterEach(() => {
    cleanup();
    window.go = undefined as unknown as typeof window.go;
  });

  it('pages the documents, with the search box and the drop zone above them', async () => {
    const calls = bind(basic(undefined, 250));
    render(<KnowledgePage />);
    const pages = await screen.findByRole('navigation', { name: 'Document pages' });
    await within(pages).findByText('Showing 1–100 of 250');
    expect(screen.getByRole('table', { name: 'Documents' }).querySelectorAll('tbody tr')).toHaveLength(100);
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await within(pages).findByText('Showing 101–200 of 250');
    expect(calls.filter((c) => c.method === 'listContent').map((c) => c.args.offset)).toEqual([0, 100]);
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await within(pages).findByText('Showing 201–250 of 250');
    expect((within(pages).getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(pages).getByRole('button', { name: 'Previous' }));
    await within(pages).findByText('Showing 101–200 of 250');
    // The search box and the drop zone come before the table.
    const search = screen.getByRole('search');
    const table = screen.getByRole('table', { name: 'Documents' });
    const input = screen.getByLabelText('Add files');
    expect(search.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(input.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows a store another program holds as held, not as empty', async () => {
    const held = { ...store, documents: 12, error: 'store "notes" is in use by process 42 (switchboard daemon, since 10:00:00); try again in a moment', inUse: true };
    bind(basic((tool) => (tool === 'listStores' ? ok({ stores: [held], maxFileBytes: 1024 }) : undefined)));
    render(<KnowledgePage />);
    const entry = await screen.findByRole('button', { name: /Notes/ });
    expect(entry.textContent).toContain('in use by another program');
    expect(entry.textContent).not.toContain('documents');
    const state = screen.getByRole('status', { name: 'Store state' });
    expect(state.textContent).toContain('In use by another program.');
    expect(state.textContent).toContain('process 42 (switchboard daemon');
    expect(state.textContent).toContain('it held 12 documents');
    expect(within(state).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('clears an old error when a search succeeds, and shows why a query can match nothing', async () => {
    let failing = true;
    bind(basic((tool) => {
      if (tool !== 'search') return undefined;
      if (failing) return fail('the query is 1200 characters; the limit is 1000');
      return ok({ query: '🎉', total: 0, hits: [], note: 'nothing can match: the query has no words to search for, only symbols or emoji' });
    }));
    render(<KnowledgePage />);
    const box = await screen.findByRole('searchbox');
    fireEvent.change(box, { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The query is 1200 characters');
    failing = false;
    fireEvent.change(box, { target: { value: '🎉' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const results = await screen.findByRole('list', { name: 'Results' });
    expect(results.textContent).toContain('Nothing can match: the query has no words to search for');
    expect(results.textContent).not.toContain('No matches');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses a file over the limit before reading it, sends bytes, says what it replaced, and takes the same file again', async () => {
    const calls = bind(basic(), (name) => ok({ added: 1, contents: [{ title: name, replaced: name === 'again.md' }] }));
    render(<KnowledgePage />);
    const input = await screen.findByLabelText('Add files') as HTMLInputElement;
    const big = new File(['x'.repeat(2000)], 'big.txt', { type: 'text/plain' });
    fireEvent.change(input, { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toBe('big.txt is 2 KB; the content store takes files up to 1 KB. Split it into smaller files and add those.');
    expect(calls.some((c) => c.method === 'AddDocument')).toBe(false);
    expect(input.value).toBe('');

    const latin1 = new File([new Uint8Array([0x63, 0x61, 0x66, 0xe9])], 'again.md');
    fireEvent.change(input, { target: { files: [latin1] } });
    expect((await screen.findByRole('status', { name: 'Added' })).textContent)
      .toBe('Added 1 file. Replaced again.md: a file of that name had been added before.');
    const sent = calls.find((c) => c.method === 'AddDocument')!.args;
    expect(sent.name).toBe('again.md');
    expect(sent.data).toBe('Y2Fm6Q=='); // the bytes as they are, not text read as UTF-8
    fireEvent.change(input, { target: { files: [latin1] } });
    await waitFor(() => expect(calls.filter((c) => c.method === 'AddDocument')).toHaveLength(2));
  });

  it('cancels an add under way', async () => {
    let finish: (v: unknown) => void = () => {};
    const calls = bind(basic(), () => new Promise((resolve) => { finish = resolve; }));
    render(<KnowledgePage />);
    const input = await screen.findByLabelText('Add files');
    fireEvent.change(input, { target: { files: [new File(['a'], 'a.md'), new File(['b'], 'b.md')] } });
    const progress = await screen.findByRole('status', { name: 'Adding files' });
    expect(progress.textContent).toContain('1 of 2: reading and indexing a.md');
    fireEvent.click(within(progress).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'CancelDocument')).toBe(true));
    finish(fail('adding a.md was cancelled'));
    expect((await screen.findByRole('status', { name: 'Added' })).textContent).toBe('Cancelled: 2 files not added.');
    expect(calls.filter((c) => c.method === 'AddDocument')).toHaveLength(1);
  });
});
