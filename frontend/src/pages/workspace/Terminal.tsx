import { FitAddon } from '@xterm/addon-fit';
import { Terminal as XTerm } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { call, EventTerminalData, hasRuntime, on, TerminalAttach, TerminalInput, TerminalResize } from '../../backend';
import type { gui } from '../../backend';
import { Orderer } from '../../orderer';
import { message } from '../../errors';

/** fromBase64 decodes the raw PTY bytes the backend sends. */
function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** TerminalInputGate is what terminalInput returns: replay writes history, dispose stops forwarding. */
export interface TerminalInputGate {
  replay(history: Uint8Array): void;
  dispose(): void;
}

/**
 * terminalInput forwards to send what the terminal emits: the user's keys,
 * and its answers to programs' queries in the output (device attributes for
 * \e[c, the cursor position, colours). History written with replay is
 * parsed like live output, so the queries in it (asked long ago, by vim or
 * a printf) would be answered again and the answers typed at the shell's
 * prompt: while a replay is being parsed (until xterm's write callback),
 * nothing is forwarded.
 */
export function terminalInput(term: XTerm, send: (data: string) => void): TerminalInputGate {
  let replaying = 0;
  const sub = term.onData((d) => {
    if (replaying === 0) send(d);
  });
  return {
    replay(history) {
      replaying++;
      term.write(history, () => { replaying--; });
    },
    dispose: () => sub.dispose(),
  };
}

/** Terminal attaches xterm.js to a workspace shell session: output live, keystrokes and resizes back. */
export function Terminal({ session }: { session: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [err, setErr] = useState('');
  useEffect(() => {
    if (!host.current || !hasRuntime()) return;
    const term = new XTerm({ convertEol: false, cursorBlink: true, fontSize: 13, scrollback: 5000 });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current);
    fit.fit();
    let off = () => {};
    let attach = '';
    const order = new Orderer<gui.TerminalData>((d) => d.attach, (d) => term.write(fromBase64(d.data)));
    // Keystrokes go one call at a time, in order: concurrent binding calls
    // may be handled out of order, and a shell must see them as typed.
    let pending = '';
    let sending = false;
    const flush = async () => {
      if (sending) return;
      sending = true;
      while (pending) {
        const d = pending;
        pending = '';
        await call(() => TerminalInput(session, d)).catch((e: unknown) => setErr(message(e)));
      }
      sending = false;
    };
    const input = terminalInput(term, (d) => {
      pending += d;
      void flush();
    });
    call(() => TerminalAttach(session)).then((a) => {
      attach = a.attach;
      if (a.history) input.replay(fromBase64(a.history));
      off = on(EventTerminalData, (d) => {
        if (d.session === session && d.attach === attach) order.push(d);
      });
      void call(() => TerminalResize(session, term.rows, term.cols));
    }, (e: unknown) => setErr(message(e)));
    const resized = term.onResize(({ rows, cols }) => void call(() => TerminalResize(session, rows, cols)));
    const obs = new ResizeObserver(() => fit.fit());
    obs.observe(host.current);
    return () => {
      obs.disconnect();
      input.dispose();
      resized.dispose();
      off();
      term.dispose();
    };
  }, [session]);
  return (
    <>
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="terminal" ref={host} role="application" aria-label={`Terminal ${session}`} data-testid="terminal" />
    </>
  );
}
