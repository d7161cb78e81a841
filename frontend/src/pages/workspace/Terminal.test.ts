import { describe, expect, it } from 'vitest';
import { Terminal as XTerm } from '@xterm/xterm';
import { terminalInput } from './Terminal';

const bytes = (s: string) => new TextEncoder().encode(s);
const written = (term: XTerm, s: string) => new Promise<void>((done) => term.write(bytes(s), done));

describe('terminalInput', () => {
  // xterm answers a device attributes query (ESC [ c) through onData, as it
  // answers a program asking: replayed history asked long ago, so its
  // answers must not reach the shell, where they would be typed at the
  // prompt ("1;2c"); live output's answers must.
  it('forwards no answers to queries in replayed history, and those of live output', async () => {
    const term = new XTerm();
    const sent: string[] = [];
    const gate = terminalInput(term, (d) => sent.push(d));
    gate.replay(bytes('Q\x1b[cQ\r\nvim asked \x1b[6n\x1b]10;?\x07 long ago\r\n'));
    await written(term, ''); // writes are parsed in order: the replay is done
    expect(sent).toEqual([]);
    await written(term, 'Q\x1b[cQ');
    expect(sent).toEqual(['\x1b[?1;2c']);
    gate.dispose();
    await written(term, '\x1b[c');
    expect(sent).toHaveLength(1);
    term.dispose();
  });
});
