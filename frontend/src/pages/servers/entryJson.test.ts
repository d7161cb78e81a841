import { describe, expect, it } from 'vitest';
import { formJSON } from './entryJson';
import type { FormState } from '../../serverform';

const form = (f: Partial<FormState>): FormState => ({
  name: 'x', transport: 'stdio', command: '', args: [], env: [], cwd: '', envFile: '', url: '', headers: [],
  startupTimeout: '', toolTimeout: '', enabled: true, includeTools: '', excludeTools: '', ...f,
});
const kv = (key: string, value: string, secret = false, secretRef = '') => ({ id: 1, key, value, secret, secretRef });

// "Edit as JSON" after typing in the form: the entry as the Go side would
// save it, in config.Server's key order, other keys kept as they were.
describe('formJSON', () => {
  it.each([
    ['a new local program', form({ command: ' npx ', args: [{ id: 1, value: '-y' }, { id: 2, value: 'pkg' }] }), '',
      { command: 'npx', args: ['-y', 'pkg'] }],
    ['an empty new form', form({}), '', { command: '' }],
    ['a remote server, switched off, with timeouts', form({ transport: 'http', url: 'https://x/mcp', headers: [kv('Accept', 'text/plain')], enabled: false, startupTimeout: '2.5', toolTimeout: '30' }), '',
      { type: 'http', url: 'https://x/mcp', headers: { Accept: 'text/plain' }, disabled: true, defaultToolTimeout: 30000, startupTimeout: 2500 }],
    ['an entry with keys the form does not edit, and a secret kept before', form({ command: 'node', env: [kv('TOKEN', '', true, '${secret:server.ab.env.TOKEN}')], includeTools: 'a, b' }),
      '{"id": "ab", "type": "stdio", "command": "old", "sandbox": {"network": false}, "metadata": {"tags": ["x"]}}',
      { id: 'ab', type: 'stdio', command: 'node', env: { TOKEN: '${secret:server.ab.env.TOKEN}' }, sandbox: { network: false }, includeTools: ['a', 'b'], metadata: { tags: ['x'] } }],
    ['a switch to HTTP drops the local fields', form({ transport: 'sse', url: 'http://localhost:1/sse' }), '{"type": "stdio", "command": "old", "args": ["a"], "env": {"A": "1"}}',
      { type: 'sse', url: 'http://localhost:1/sse' }],
  ])('%s', (_, f, base, want) => {
    const text = formJSON(f, base);
    expect(JSON.parse(text!)).toEqual(want);
    expect(Object.keys(JSON.parse(text!))).toEqual(Object.keys(want));
  });

  it('is null while a secret value typed in the form is in it: it never goes into the text', () => {
    expect(formJSON(form({ command: 'npx', env: [kv('TOKEN', 's3cret', true)] }), '')).toBeNull();
  });
});
