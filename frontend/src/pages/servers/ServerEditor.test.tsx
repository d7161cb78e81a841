import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ServerEditor } from './ServerEditor';

// The form against a stand-in of the Go side: what it sends, and how it
// shows the problems and the result it gets back.
describe('ServerEditor', () => {
  const sent: { old: string; form: Record<string, unknown> }[] = [];
  const blank = {
    name: '', transport: 'stdio', command: '', args: [], env: [], cwd: '', url: '', headers: [],
    startupTimeoutMs: 0, toolTimeoutMs: 0, enabled: true, json: '{\n  "command": ""\n}', base: '', configPath: '/data/config.json',
  };
  const asked: unknown[][] = [];
  function bind(save: (old: string, form: Record<string, unknown>) => unknown) {
    window.go = {
      gui: {
        Window: { Info: async () => ({}), ConfigError: async () => '' },
        ServersPage: {
          Servers: async () => [],
          ServerForm: async (name: string) => (name ? { ...blank, name, command: 'node', base: 'B' } : blank),
          CheckServerForm: async () => [],
          // The Go side's rule, reduced to the shape the test types.
          LooksSecret: async (name: string, value: string, header: boolean) => {
            asked.push([name, value, header]);
            return value.startsWith('sk-');
          },
          SaveServerForm: async (old: string, form: Record<string, unknown>) => {
            sent.push({ old, form });
            return save(old, form);
          },
          SaveServerJSON: async () => ({
            saved: false, tools: 0, server: {},
            problems: [{ field: '', message: "expected ',' or '}' after a value", line: 3, col: 3 }],
          }),
        },
      },
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
  }
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    sent.length = 0;
    asked.length = 0;
  });

  it('proposes the keyring for a secret-looking value and sends it as a secret', async () => {
    bind((_old, form) => ({ saved: true, tools: 1, problems: [], server: { name: form.name, state: 'ready', error: '' } }));
    render(<ServerEditor onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'ai' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(screen.getByLabelText('Environment 1 name'), { target: { value: 'OPENAI' } });
    fireEvent.change(screen.getByLabelText('Environment 1 value'), { target: { value: 'sk-proj-0123456789abcdef' } });
    const keep = await screen.findByRole('button', { name: 'Keep OPENAI in the keyring' }, { timeout: 5000 });
    expect(screen.getByRole('note').textContent).toContain('OPENAI looks like a secret');
    expect(asked).toContainEqual(['OPENAI', 'sk-proj-0123456789abcdef', false]);
    fireEvent.click(keep);
    expect((screen.getByLabelText('Environment 1 value') as HTMLInputElement).type).toBe('password');
    expect(screen.queryByRole('note')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add and start' }));
    await screen.findByRole('status');
    expect(sent[0]!.form.env).toEqual([{ key: 'OPENAI', value: 'sk-proj-0123456789abcdef', secret: true, secretRef: '' }]);
  });

  it('asks about headers as headers and leaves plain values alone', async () => {
    bind(() => ({}));
    render(<ServerEditor onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Transport'), { target: { value: 'http' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add header' }));
    fireEvent.change(screen.getByLabelText('Headers 1 name'), { target: { value: 'Accept' } });
    fireEvent.change(screen.getByLabelText('Headers 1 value'), { target: { value: 'text/plain' } });
    await waitFor(() => expect(asked).toContainEqual(['Accept', 'text/plain', true]));
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('adds a server: arguments in order, a secret variable, then the result', async () => {
    bind((_old, form) => ({ saved: true, tools: 9, problems: [], server: { name: form.name, state: 'ready', error: '' } }));
    render(<ServerEditor onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'mem' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    const add = screen.getByRole('button', { name: 'Add argument' });
    fireEvent.click(add);
    fireEvent.change(screen.getByLabelText('Argument 1'), { target: { value: 'server-memory' } });
    fireEvent.click(add);
    fireEvent.change(screen.getByLabelText('Argument 2'), { target: { value: '-y' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move argument 2 up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(screen.getByLabelText('Environment 1 name'), { target: { value: 'TOKEN' } });
    fireEvent.change(screen.getByLabelText('Environment 1 value'), { target: { value: 's3cret' } });
    fireEvent.click(within(screen.getByRole('group', { name: 'Environment' })).getByLabelText(/Secret/));
    expect((screen.getByLabelText('Environment 1 value') as HTMLInputElement).type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Add and start' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved. mem is running with 9 tools.');
    expect(sent[0]!.old).toBe('');
    expect(sent[0]!.form.args).toEqual(['-y', 'server-memory']);
    expect(sent[0]!.form.env).toEqual([{ key: 'TOKEN', value: 's3cret', secret: true, secretRef: '' }]);
  });

  it('shows each problem under its field and saves nothing with a bad timeout', async () => {
    bind(() => ({ saved: false, tools: 0, server: {}, problems: [{ field: 'command', message: 'must not be empty', line: 0, col: 0 }] }));
    render(<ServerEditor name="svc" onClose={() => undefined} />);
    const timeout = await screen.findByLabelText('Tool timeout (seconds)');
    fireEvent.change(timeout, { target: { value: 'soon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and restart' }));
    await screen.findByText('Must be a positive number of seconds, or empty for the default.');
    expect(sent).toHaveLength(0);
    expect(timeout.getAttribute('aria-describedby')).toBeTruthy();

    fireEvent.change(timeout, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and restart' }));
    const problem = await screen.findByText('Must not be empty.');
    expect(document.getElementById(screen.getByLabelText('Command').getAttribute('aria-describedby')!)!.contains(problem)).toBe(true);
    expect(sent[0]).toMatchObject({ old: 'svc', form: { base: 'B', name: 'svc' } });
  });

  it('reports a JSON syntax error as line:column', async () => {
    bind(() => ({}));
    render(<ServerEditor name="svc" onClose={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit as JSON' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and restart' }));
    await waitFor(() => expect(screen.getByText("Line 3, column 3: expected ',' or '}' after a value.")).toBeTruthy());
    expect(document.activeElement).toBe(screen.getByLabelText(/Entry \(JSON/));
  });

  // At 720 px the problem may be far above the button: focus goes to the
  // field, which says what is wrong, and the button's row says how many.
  it('focuses the first field with a problem, marks it invalid, keeps its hint and counts the problems', async () => {
    bind(() => ({ saved: false, tools: 0, server: {}, problems: [
      { field: 'command', message: 'needs "command": a stdio server is started as a local program', line: 0, col: 0 },
      { field: 'name', message: 'a server named "everything" already exists; choose another name', line: 0, col: 0 },
    ] }));
    render(<ServerEditor onClose={() => undefined} />);
    const name = await screen.findByLabelText('Name');
    fireEvent.change(name, { target: { value: 'everything' } });
    const add = screen.getByRole('button', { name: 'Add and start' });
    add.focus();
    fireEvent.click(add);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Command').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Working directory').getAttribute('aria-invalid')).toBeNull();
    const desc = document.getElementById(name.getAttribute('aria-describedby')!)!;
    expect(desc.textContent).toBe('Prefixes its tools (name__tool).A server named "everything" already exists; choose another name.');
    expect(screen.getByRole('alert').textContent).toBe('2 problems: Name, Command.');
    fireEvent.change(name, { target: { value: 'everything-2' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says where a new server will be saved until it is', async () => {
    bind((_old, form) => ({ saved: true, tools: 1, problems: [], server: { name: form.name, state: 'ready', error: '' } }));
    render(<ServerEditor onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'mem' } });
    expect(screen.getByText('Will be saved to /data/config.json')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add and start' }));
    await screen.findByRole('status');
    expect(screen.getByText('Saved in /data/config.json')).toBeTruthy();
  });

  it('shows what was typed in the form in "Edit as JSON"', async () => {
    bind(() => ({}));
    render(<ServerEditor onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'x' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add argument' }));
    fireEvent.change(screen.getByLabelText('Argument 1'), { target: { value: '-y' } });
    fireEvent.change(screen.getByLabelText('Tool timeout (seconds)'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit as JSON' }));
    const text = (screen.getByLabelText(/Entry \(JSON/) as HTMLTextAreaElement).value;
    expect(JSON.parse(text)).toEqual({ command: 'npx', args: ['-y'], defaultToolTimeout: 30000 });
  });

  it('leaves a new secret value out of "Edit as JSON" and says so', async () => {
    bind(() => ({}));
    render(<ServerEditor onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(screen.getByLabelText('Environment 1 name'), { target: { value: 'TOKEN' } });
    fireEvent.change(screen.getByLabelText('Environment 1 value'), { target: { value: 's3cret' } });
    fireEvent.click(within(screen.getByRole('group', { name: 'Environment' })).getByLabelText(/Secret/));
    fireEvent.click(screen.getByRole('button', { name: 'Edit as JSON' }));
    const text = (screen.getByLabelText(/Entry \(JSON/) as HTMLTextAreaElement).value;
    expect(text).not.toContain('s3cret');
    expect(text).toBe('{\n  "command": ""\n}');
    expect(screen.getByText(/a secret typed in the form goes to the keyring only from the form/)).toBeTruthy();
  });
});
