import { describe, expect, it } from 'vitest';
import type { gui } from './backend';
import { fieldOf, fromView, groupProblems, jsonProblemText, keyOf, localProblems, move, parseSeconds, savedText, toolNames, toView } from './serverform';

const view = (over: Partial<gui.ServerFormView> = {}): gui.ServerFormView => ({
  name: 'gh', transport: 'stdio', command: 'npx', args: ['-y', 'server-github'],
  env: [{ key: 'GITHUB_TOKEN', value: '', secret: true, secretRef: '${secret:gh_GITHUB_TOKEN}' }, { key: 'LOG', value: 'debug', secret: false, secretRef: '' }],
  cwd: '', url: '', headers: [], startupTimeoutMs: 30000, toolTimeoutMs: 0, enabled: true, json: '{}', base: '{"command":"npx"}', configPath: '/c/config.json',
  ...over,
} as gui.ServerFormView);

describe('fieldOf and keyOf', () => {
  it.each([
    ['command', 'command', ''],
    ['url', 'url', ''],
    ['env.TOKEN', 'env', 'TOKEN'],
    ['env["A=B"]', 'env', 'A=B'],
    ['headers.Authorization', 'headers', 'Authorization'],
    ['args[2]', 'args', ''],
    ['defaultToolTimeout', 'toolTimeout', ''],
    ['startupTimeout', 'startupTimeout', ''],
    ['type', 'transport', ''],
    ['name', 'name', ''],
    ['sandbox.network', 'form', ''],
    ['excludeTools[0]', 'excludeTools', ''],
    ['includeTools', 'includeTools', ''],
  ])('%s is shown under %s', (path, field, key) => {
    expect(fieldOf(path)).toBe(field);
    if (field === 'env' || field === 'headers') expect(keyOf(path)).toBe(key);
  });
});

describe('groupProblems', () => {
  it('puts each problem under its field, naming the row of a variable', () => {
    const got = groupProblems([
      { field: 'command', message: 'needs "command"', line: 0, col: 0 },
      { field: 'env["A=B"]', message: 'is not a valid variable name', line: 0, col: 0 },
      { field: 'sandbox', message: 'is ignored', line: 0, col: 0 },
    ] as gui.FieldProblemView[]);
    expect(got).toEqual({
      command: ['needs "command"'],
      env: ['A=B: is not a valid variable name'],
      form: ['sandbox: is ignored'],
    });
  });

  it('says a warning is one (the entry saves as it is)', () => {
    const got = groupProblems([
      { field: 'args[0]', message: 'uses ${userHome}, which Switchboard gives no value', line: 0, col: 0, warning: true },
      { field: 'env.ROOT', message: 'uses ${workspaceFolder}', line: 0, col: 0, warning: true },
    ]);
    expect(got).toEqual({
      args: ['Warning: uses ${userHome}, which Switchboard gives no value'],
      env: ['ROOT: Warning: uses ${workspaceFolder}'],
    });
  });
});

describe('timeouts', () => {
  it.each([
    ['', 0, ''],
    ['30', 30000, ''],
    [' 1.5 ', 1500, ''],
    ['0', 0, 'positive'],
    ['-2', 0, 'positive'],
    ['soon', 0, 'positive'],
  ])('%j is %d ms', (text, ms, err) => {
    const got = parseSeconds(text);
    expect(got.ms).toBe(ms);
    if (err) expect(got.error).toContain(err);
    else expect(got.error).toBe('');
  });

  it('are the only problems the form finds by itself', () => {
    const f = fromView(view());
    expect(localProblems(f)).toEqual({});
    expect(localProblems({ ...f, toolTimeout: 'x', command: '' })).toEqual({ toolTimeout: ['must be a positive number of seconds, or empty for the default'] });
  });
});

describe('fromView and toView', () => {
  it('round-trip an entry, keeping a stored secret by reference and sending a new one as its value', () => {
    const f = fromView(view());
    expect(f.startupTimeout).toBe('30');
    expect(f.toolTimeout).toBe('');
    expect(f.args.map((a) => a.value)).toEqual(['-y', 'server-github']);
    const edited = {
      ...f,
      name: ' gh2 ',
      env: [...f.env, { id: 99, key: ' API_KEY ', value: 'sk-1', secret: true, secretRef: '' }],
    };
    const out = toView(edited, 'BASE');
    expect(out.name).toBe('gh2');
    expect(out.base).toBe('BASE');
    expect(out.startupTimeoutMs).toBe(30000);
    expect(out.env).toEqual([
      { key: 'GITHUB_TOKEN', value: '', secret: true, secretRef: '${secret:gh_GITHUB_TOKEN}' },
      { key: 'LOG', value: 'debug', secret: false, secretRef: '' },
      { key: 'API_KEY', value: 'sk-1', secret: true, secretRef: '' },
    ]);
  });

  it('drops a reference once the row is no longer secret', () => {
    const f = fromView(view());
    f.env[0] = { ...f.env[0]!, secret: false, value: 'plain' };
    expect(toView(f, '').env[0]).toEqual({ key: 'GITHUB_TOKEN', value: 'plain', secret: false, secretRef: '' });
  });

  it('round-trip the tools offered and left out, typed with commas, spaces or lines', () => {
    const f = fromView(view({ includeTools: ['read', 'list'], excludeTools: [] }));
    expect([f.includeTools, f.excludeTools]).toEqual(['read, list', '']);
    const back = toView({ ...f, excludeTools: ' write_file,\ndelete_file  move ' }, '{}');
    expect([back.includeTools, back.excludeTools]).toEqual([['read', 'list'], ['write_file', 'delete_file', 'move']]);
    expect(toolNames(' , ')).toEqual([]);
  });

  it('reads an unknown transport as stdio', () => {
    expect(fromView(view({ transport: 'websocket' })).transport).toBe('stdio');
  });
});

describe('move', () => {
  it('moves a row and leaves the list alone at an end', () => {
    const l = ['a', 'b', 'c'];
    expect(move(l, 1, -1)).toEqual(['b', 'a', 'c']);
    expect(move(l, 1, 1)).toEqual(['a', 'c', 'b']);
    expect(move(l, 0, -1)).toBe(l);
    expect(move(l, 2, 1)).toBe(l);
  });
});

describe('texts', () => {
  it('say line:column in JSON mode', () => {
    expect(jsonProblemText({ field: 'env.PORT', message: 'must be a string', line: 3, col: 19 } as gui.FieldProblemView)).toBe('Line 3, column 19: env.PORT: must be a string');
    expect(jsonProblemText({ field: '', message: "expected ',' or '}'", line: 2, col: 5 } as gui.FieldProblemView)).toBe("Line 2, column 5: expected ',' or '}'");
  });

  it('say how the server runs after a save', () => {
    const saved = (state: string, error = '', tools = 0) => ({ saved: true, tools, problems: [], server: { name: 'mem', state, error } }) as unknown as gui.ServerSaveView;
    expect(savedText(saved('ready', '', 9))).toBe('Saved. mem is running with 9 tools.');
    expect(savedText(saved('ready', '', 1))).toBe('Saved. mem is running with 1 tool.');
    expect(savedText(saved('error', 'WEATHER_API_KEY is required'))).toBe('Saved, but mem did not start: WEATHER_API_KEY is required');
    expect(savedText(saved('disabled'))).toMatch(/disabled/);
    const typo = { ...saved('ready', '', 7), unknownTools: ['delete_entites'] } as gui.ServerSaveView;
    expect(savedText(typo)).toBe('Saved. mem is running with 7 tools. It has no tool named "delete_entites": check the names under Offer only / Leave out (they are the server\'s own, without mem__).');
  });
});
