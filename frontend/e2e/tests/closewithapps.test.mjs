// Closing the window while an app uses Switchboard's servers: the window
// stays and asks (Keep running in the background / Quit anyway / Cancel).
// Production binary under Xvfb (a browser cannot close a native window),
// with a private data dir; one app attached as an app's entry runs it
// ('switchboard serve --client cursor'). The window is closed as a window
// manager's close button does (WM_DELETE_WINDOW, sent by a 20-line Xlib
// program built here) and with the File menu's Ctrl+Q; the dialog is
// answered with the keyboard (Esc, Enter on the focused button, Tab).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '../lib.mjs';

async function until(what, timeoutMs, fn) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function windowIds(pid) {
  try {
    return execFileSync('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(pid), '--name', '(^|— )Switchboard$'], { encoding: 'utf8' })
      .split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

// closeWindow asks the window to close as a window manager's close button
// does: a WM_DELETE_WINDOW client message (GTK's delete-event).
const CLOSER_C = `#include <X11/Xlib.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  Display *d = XOpenDisplay(NULL);
  if (!d || argc < 2) return 1;
  for (int i = 1; i < argc; i++) {
    Window w = strtoul(argv[i], NULL, 0);
    XEvent e = {0};
    e.xclient.type = ClientMessage;
    e.xclient.window = w;
    e.xclient.message_type = XInternAtom(d, "WM_PROTOCOLS", False);
    e.xclient.format = 32;
    e.xclient.data.l[0] = XInternAtom(d, "WM_DELETE_WINDOW", False);
    e.xclient.data.l[1] = CurrentTime;
    XSendEvent(d, w, False, NoEventMask, &e);
  }
  XFlush(d);
  XCloseDisplay(d);
  return 0;
}
`;

/** An MCP client on a 'serve' process's stdio. */
function mcpClient(proc) {
  let buf = '';
  const waiting = new Map();
  proc.stdout.on('data', (b) => {
    buf += b;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      let msg;
      try { msg = JSON.parse(line); } catch { continue; }
      if (msg.id !== undefined && waiting.has(msg.id)) {
        waiting.get(msg.id)(msg);
        waiting.delete(msg.id);
      }
    }
  });
  let next = 1;
  return {
    request(method, params, timeoutMs = 30_000) {
      const id = next++;
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`${method}: no answer in ${timeoutMs} ms`)), timeoutMs);
        waiting.set(id, (m) => { clearTimeout(t); resolve(m); });
        proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      });
    },
    notify(method, params) {
      proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }) + '\n');
    },
  };
}

test('closing the window while an app is attached asks: stay open, keep running, quit anyway', async () => {
  const bin = env('SWITCHBOARD_BIN');
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-close-'));
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The welcome page was done; the window is 1280 px wide (the screen's width).
  writeFileSync(path.join(dataDir, 'ui.json'), JSON.stringify({ welcomeDone: true, window: { x: 0, y: 0, width: 1280, height: 860 } }));
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: {} }));
  const closer = path.join(tmp, 'closewindow');
  writeFileSync(closer + '.c', CLOSER_C);
  execFileSync('cc', ['-o', closer, closer + '.c', '-lX11']);
  const shot = (ids, name) => execFileSync('import', ['-window', ids[0], '-silent', path.join(env('E2E_ARTIFACTS'), `${name}.png`)], { timeout: 10_000 });
  const paint = () => new Promise((r) => setTimeout(r, 1500)); // let WebKit paint before a screenshot (not a sync point: the log is)

  const appEnv = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'share') };
  const stderr = [];
  const app = spawn(bin, ['--data-dir', dataDir], { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  app.stderr.on('data', (b) => stderr.push(b));
  let exit = null;
  app.on('exit', (code, signal) => { exit = { code, signal }; });
  const log = () => Buffer.concat(stderr).toString();
  const count = (s) => log().split(s).length - 1;

  let serve = null;
  const serveErr = [];
  let serveExit = null;
  try {
    await until('the window to render', 30_000, () => exit !== null || log().includes('frontend ready'));
    assert.equal(exit, null, `the app exited: ${JSON.stringify(exit)} ${log()}`);
    let ids = await until('the window', 10_000, () => { const w = windowIds(app.pid); return w.length ? w : null; });
    await until('the servers to be shared', 30_000, () => log().includes('shared servers: listening'));

    // An app's entry starts serve; it attaches to the running Switchboard.
    serve = spawn(bin, ['--data-dir', dataDir, 'serve', '--client', 'cursor'], { env: appEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    serve.stderr.on('data', (b) => serveErr.push(b));
    serve.on('exit', (code) => { serveExit = code; });
    const serveLog = () => Buffer.concat(serveErr).toString();
    const mcp = mcpClient(serve);
    const init = await mcp.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cursor', version: '1' } });
    assert.ok(init.result, `initialize: ${JSON.stringify(init)}`);
    mcp.notify('notifications/initialized');
    assert.match(serveLog(), /using the servers of the running Switchboard \(pid \d+\)/);
    const tools = await mcp.request('tools/list', {});
    const list = tools.result.tools.find((t) => t.name.endsWith('__list_directory'));
    assert.ok(list, `a built-in's list_directory is listed: ${tools.result.tools.map((t) => t.name).join(' ')}`);
    const call = async () => {
      const res = await mcp.request('tools/call', { name: list.name, arguments: { path: '.' } });
      assert.ok(res.result && !res.result.isError, `tools/call ${list.name}: ${JSON.stringify(res)}`);
    };
    await call();
    await until('the app to be attached', 10_000, () => log().includes('shared servers: app attached'));

    // 1. The close button: the window stays and asks. Esc (Cancel) keeps it as it was.
    execFileSync(closer, ids);
    await until('the close to be held', 10_000, () => count('window close held') === 1);
    await paint();
    shot(ids, 'closewithapps-1280-dialog');
    assert.equal(exit, null, 'closing with an app attached does not quit at once');
    assert.ok(windowIds(app.pid).length > 0, 'the window stays on screen while it asks');
    execFileSync('xdotool', ['windowfocus', ids[0]]);
    execFileSync('xdotool', ['key', '--clearmodifiers', 'Escape']);
    await until('Cancel', 10_000, () => log().includes('window close: stay open'));
    await paint();
    shot(ids, 'closewithapps-1280-cancelled');
    assert.equal(exit, null);
    assert.ok(windowIds(app.pid).length > 0, 'Cancel leaves the window open');

    // 2. Ctrl+Q asks too; Enter on the focused "Keep running in the background"
    // hides the window, and the app's calls go on.
    execFileSync('xdotool', ['windowfocus', ids[0]]);
    execFileSync('xdotool', ['key', '--clearmodifiers', 'ctrl+q']);
    await until('the second close to be held', 10_000, () => count('window close held') === 2);
    await paint();
    execFileSync('xdotool', ['key', '--clearmodifiers', 'Return']);
    await until('Keep running', 10_000, () => log().includes('window close: keep running'));
    await until('the window to be hidden', 10_000, () => windowIds(app.pid).length === 0);
    assert.equal(exit, null, 'Keep running leaves Switchboard running');
    await call();

    // Opening Switchboard again shows the window.
    const again = spawn(bin, ['--data-dir', dataDir], { env: appEnv, stdio: 'ignore' });
    await new Promise((resolve) => again.on('exit', resolve));
    ids = await until('the window to show again', 10_000, () => { const w = windowIds(app.pid); return w.length ? w : null; });

    // 3. Closing again: Tab to "Quit anyway", Enter. Switchboard quits; the
    // app's serve says so and runs the servers itself, and its call answers.
    execFileSync(closer, ids);
    await until('the third close to be held', 10_000, () => count('window close held') === 3);
    await paint();
    execFileSync('xdotool', ['windowfocus', ids[0]]);
    execFileSync('xdotool', ['key', '--clearmodifiers', 'Tab', 'Return']);
    await until('Switchboard to quit', 20_000, () => exit !== null);
    assert.equal(exit.code, 0, `Quit anyway exits cleanly: ${JSON.stringify(exit)}`);
    assert.match(log(), /window close: quit anyway/);
    await until('serve to notice', 20_000, () => /the running Switchboard \(pid \d+\) went away .*; starting the servers here/.test(serveLog()));
    await call();
    assert.equal(serveExit, null, 'the app’s serve goes on');
  } finally {
    if (serve && serveExit === null) serve.stdin.end();
    if (serve) await until('serve to exit', 10_000, () => serveExit !== null).catch(() => serve.kill('SIGKILL'));
    if (exit === null) app.kill('SIGTERM');
    await until('Switchboard to exit', 10_000, () => exit !== null).catch(() => app.kill('SIGKILL'));
    rmSync(tmp, { recursive: true, force: true });
  }
});
