// Smoke test of the production binary: under Xvfb its window appears (found by
// title), and quitting (SIGTERM, as a session logout would) leaves no process
// of its tree behind — WebKit's helper processes included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '../lib.mjs';

// windowIds finds the visible windows of pid titled "title" or "<page> —
// title" (the title bar follows the page; the dev app of the other e2e
// tests shares this display and title).
function windowIds(pid, title) {
  try {
    return execFileSync('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(pid), '--name', `(^|— )${title}$`], { encoding: 'utf8' })
      .split('\n').filter(Boolean);
  } catch {
    return []; // xdotool exits 1 when nothing matches
  }
}

// descendants lists every live process under pid, from /proc.
function descendants(pid) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch { /* exited meanwhile */ }
  }
  const out = [];
  const walk = (p) => { for (const c of children.get(p) ?? []) { out.push(c); walk(c); } };
  walk(pid);
  return out;
}

// alive is true while pid runs; a zombie (exited, not yet reaped by whoever
// inherited it) counts as gone.
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(what, timeoutMs, fn) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('production binary opens its window and quits cleanly', async () => {
  const bin = env('SWITCHBOARD_BIN');
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-smoke-'));
  const stderr = [];
  const app = spawn(bin, ['--data-dir', path.join(tmp, 'data')], {
    env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'share') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  app.stderr.on('data', (b) => stderr.push(b));
  let exit = null;
  const exited = new Promise((r) => app.on('exit', (code, signal) => { exit = { code, signal }; r(); }));
  try {
    const started = Date.now();
    const ids = await until('the Switchboard window', 15_000, () => {
      if (exit !== null) return 'exited';
      const found = windowIds(app.pid, 'Switchboard');
      return found.length > 0 ? found : null;
    })
      .catch((e) => { throw new Error(`${e.message}\nstderr: ${Buffer.concat(stderr)}`); });
    assert.notEqual(ids, 'exited', `app exited early: ${JSON.stringify(exit)} ${Buffer.concat(stderr)}`);
    console.log(`window appeared after ${Date.now() - started} ms`);
    // Let WebKit start its helper processes so the no-orphans check means something.
    const tree = await until('WebKit helper processes', 15_000, () => {
      const d = descendants(app.pid);
      return d.length > 0 ? d : null;
    });
    // The frontend calls App.Ready() once it has rendered; the app logs it.
    await until('the frontend to render', 15_000, () => Buffer.concat(stderr).includes('frontend ready'));
    // The web process runs JavaScript with the baseline JIT only (app/webkit:
    // the optimising tiers' code and profiles cost ~48 MB over a day of chat).
    const web = descendants(app.pid).filter((p) => {
      try { return readFileSync(`/proc/${p}/comm`, 'utf8').trim().startsWith('WebKitWebProces'); } catch { return false; }
    });
    assert.ok(web.length >= 1, 'a WebKitWebProcess runs under the app');
    for (const p of web) {
      const webEnv = readFileSync(`/proc/${p}/environ`, 'utf8').split('\0');
      assert.ok(webEnv.includes('JSC_useDFGJIT=false'), `web process ${p}'s environment has JSC_useDFGJIT=false: ${webEnv.filter((v) => v.startsWith('JSC_')).join(' ') || 'no JSC_ options'}`);
    }
    assert.match(Buffer.concat(stderr).toString(), /JavaScript JIT.*tier=baseline/, 'the app logs the tier it chose');
    execFileSync('import', ['-window', ids[0], '-silent', path.join(env('E2E_ARTIFACTS'), 'smoke-window.png')], { timeout: 10_000 });

    const all = [...new Set([...tree, ...descendants(app.pid)])];
    app.kill('SIGTERM');
    await Promise.race([exited, new Promise((_, rej) => setTimeout(() => rej(new Error('app did not exit within 10 s of SIGTERM')), 10_000))]);
    assert.equal(exit.code, 0, `clean exit, got ${JSON.stringify(exit)}; stderr: ${Buffer.concat(stderr)}`);
    await until('helper processes to exit', 5_000, () => all.every((p) => !alive(p)));
    assert.deepEqual(windowIds(app.pid, 'Switchboard'), [], 'window is gone');
  } finally {
    if (exit === null) app.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  }
});
