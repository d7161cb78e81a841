import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { childPath, foldersFromTree, shownName, userReason, WorkspacePage, type TreeResult } from './WorkspacePage';

// The tree tool's structured content for a folder with names its text
// listing quotes, a link to a file, one round in a loop, a named pipe, and
// a folder below the tree's depth.
const tree: TreeResult = {
  path: '.',
  depthLimited: true,
  entries: [
    { name: ' lead.txt', type: 'file', path: ' lead.txt', depth: 1 },
    { name: 'a -> b.txt', type: 'file', path: 'a -> b.txt', depth: 1 },
    { name: 'big.txt', type: 'file', size: 21, path: 'big.txt', depth: 1 },
    { name: 'bin.dat', type: 'file', size: 4, path: 'bin.dat', depth: 1 },
    { name: 'd1', type: 'dir', path: 'd1', depth: 1 },
    { name: 'd2', type: 'dir', path: 'd1/d2', depth: 2, unlisted: true },
    { name: 'in', type: 'symlink', target: 'a -> b.txt', targetType: 'file', path: 'in', depth: 1 },
    { name: 'loop', type: 'symlink', target: 'loop', path: 'loop', depth: 1 },
    { name: 'new\nline.txt', type: 'file', path: 'new\nline.txt', depth: 1 },
    { name: 'pipe', type: 'fifo', path: 'pipe', depth: 1 },
  ],
};

// backend stands in for the Go side: the workspace's info and its tools'
// answers as the window's CallTool gives them; calls lists the tool calls.
function backend(fresh: boolean) {
  const calls: string[] = [];
  const ok = (structured: unknown) => ({ isError: false, content: [{ type: 'text', text: 'for the model' }], structured: JSON.stringify(structured), schemaError: '', durationMs: 1 });
  const fail = (text: string) => ({ isError: true, content: [{ type: 'text', text }], structured: '', schemaError: '', durationMs: 1 });
  const lines = ['line 1\n', 'line 2\n', 'line 3\n'];
  const tools: Record<string, (a: { path?: string; fromLine?: number }) => unknown> = {
    workspace__tree: () => ok(tree),
    workspace__list_directory: (a) => ok({ path: a.path, entries: [{ name: '.cache', type: 'dir', ignored: true }, { name: 'deep.txt', type: 'file', size: 5 }] }),
    workspace__read_file: (a) => {
      switch (a.path) {
        case 'bin.dat':
          return fail('read_file "bin.dat": not a text file: it is binary (a NUL byte at offset 3); the file tools handle text only, so inspect it with execute_shell (file, xxd)');
        case 'big.txt': {
          const from = a.fromLine ?? 1;
          const to = from === 1 ? 1 : 3;
          return ok({ path: a.path, content: lines.slice(from - 1, to).join(''), fromLine: from, toLine: to, totalLines: 3, size: 21 });
        }
      }
      return ok({ path: a.path, content: `content of ${a.path}\n`, fromLine: 1, toLine: 1, totalLines: 1, size: 9 });
    },
  };
  window.go = {
    gui: {
      Window: { Info: async () => ({}) },
      WorkspacePage: { WorkspaceInfo: async () => ({ root: '/home/me/work', fresh, sessions: [] }) },
      ToolsPage: {
        CallTool: async (name: string, args: string) => {
          calls.push(`${name} ${args}`);
          return tools[name]?.(JSON.parse(args) as { path?: string }) ?? fail(`no tool ${name}`);
        },
      },
    },
  } as unknown as typeof window.go;
  return calls;
}

afterEach(() => {
  window.go = undefined as unknown as typeof window.go;
});

describe('WorkspacePage', () => {
  it('lists the files from the tools structured content, odd names as they are', async () => {
    backend(false);
    render(<WorkspacePage />);
    const files = screen.getByRole('list', { name: 'Files' });
    const arrow = await within(files).findByRole('button', { name: 'a -> b.txt' });
    expect(within(files).getByRole('button', { name: 'new\\nline.txt' })).toBeTruthy();
    expect(within(files).getAllByRole('button').some((b) => b.textContent === ' lead.txt')).toBe(true);
    // What the viewer cannot show is no button, and says what it is.
    expect(within(files).queryByRole('button', { name: 'pipe' })).toBeNull();
    expect(within(files).getByText('(named pipe)')).toBeTruthy();
    expect(within(files).queryByRole('button', { name: /loop/ })).toBeNull();
    expect(within(files).getByText('(link not followed)')).toBeTruthy();
    // A name with an arrow opens itself; a link to a file inside opens too.
    fireEvent.click(arrow);
    await screen.findByText('content of a -> b.txt');
    fireEvent.click(within(files).getByRole('button', { name: 'in' }));
    await screen.findByText('content of in');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('opens a folder below the tree with list_directory', async () => {
    const calls = backend(false);
    render(<WorkspacePage />);
    const files = screen.getByRole('list', { name: 'Files' });
    const d2 = await within(files).findByRole('button', { name: 'd2/' });
    expect(d2.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(d2);
    await within(files).findByRole('button', { name: 'deep.txt' });
    expect(calls).toContain('workspace__list_directory {"path":"d1/d2"}');
    expect(within(files).queryByText('.cache')).toBeNull(); // ignored, as the tree leaves it out
    expect(d2.getAttribute('aria-expanded')).toBe('true');
    // A folder the tree listed closes and opens again.
    const d1 = within(files).getByRole('button', { name: 'd1/' });
    fireEvent.click(d1);
    expect(within(files).queryByRole('button', { name: 'd2/' })).toBeNull();
  });

  it('shows a long file a range at a time, and errors in the user\'s words', async () => {
    const calls = backend(false);
    render(<WorkspacePage />);
    const files = screen.getByRole('list', { name: 'Files' });
    fireEvent.click(await within(files).findByRole('button', { name: 'big.txt' }));
    const view = screen.getByLabelText('File');
    await within(view).findByText('Lines 1–1 of 3.', { exact: false });
    fireEvent.click(within(view).getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(view.querySelector('pre')?.textContent).toBe('line 1\nline 2\nline 3\n'));
    expect(within(view).queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(calls).toContain('workspace__read_file {"path":"big.txt","fromLine":2}');
    expect(view.textContent).not.toContain('fromLine');

    fireEvent.click(within(files).getByRole('button', { name: 'bin.dat' }));
    await within(view).findByText('It is not a text file: it is binary (a NUL byte at offset 3), so it is not shown here.');
    expect(view.textContent).not.toContain('execute_shell');
  });

  it('says when the model writes files without asking', async () => {
    backend(true);
    render(<WorkspacePage />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('without asking you');
    expect(note.textContent).toContain('.switchboard-workspace');
  });
});

describe('foldersFromTree', () => {
  it('files entries under their folders, leaving unlisted folders out', () => {
    const f = foldersFromTree(tree);
    expect([...f.keys()]).toEqual(['.', 'd1']);
    expect(f.get('d1')?.map((e) => e.name)).toEqual(['d2']);
    expect(f.get('.')?.map((e) => e.name)).toContain('new\nline.txt');
    expect(childPath('.', 'a')).toBe('a');
    expect(childPath('d1/d2', 'x y')).toBe('d1/d2/x y');
  });
});

describe('shownName', () => {
  it('writes control and direction characters as escapes', () => {
    expect(shownName('new\nline.txt')).toBe('new\\nline.txt');
    expect(shownName('evil\u202etxt.exe')).toBe('evil\\u202etxt.exe');
    expect(shownName(' lead.txt')).toBe(' lead.txt');
  });
});

describe('userReason', () => {
  it.each([
    ['read_file "p": not a regular file: it is a named pipe (FIFO); the file tools read and write regular files only', 'It is a named pipe (FIFO), not a regular file, so it is not shown here.'],
    ['read_file "x y": no such file or directory: check the path with list_directory or search_files', 'It is no longer there: it was moved or deleted.'],
    ['read_file "h": file has more than one hard link: it has 2, and another one may be outside the workspace; ask the user', 'It has more than one hard link, and another may be outside the workspace, so it is not read.'],
    ['read_file "q\\"x": something new: what happened; what the model should do', 'something new: what happened'],
  ])('%s', (text, want) => {
    expect(userReason(text)).toBe(want);
  });
});
