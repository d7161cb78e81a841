// Single instance: with Switchboard running, a second launch given a .mcpb
// hands the file to the running window and exits at once; the window shows
// it on the Servers page. Production binary under Xvfb, on the private D-Bus
// session of 'make test-e2e' (where the single-instance lock lives).
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
    const v = fn();
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

test('a second launch hands its .mcpb to the running window and exits', async () => {
  const bin = env('SWITCHBOARD_BIN');
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-single-'));
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The welcome page was done: the window opens on its pages.
  writeFileSync(path.join(dataDir, 'ui.json'), JSON.stringify({ welcomeDone: true }));
  const bundle = path.join(tmp, 'weather.mcpb');
  writeFileSync(bundle, 'PK\x05\x06' + '\0'.repeat(18)); // an empty zip
  const appEnv = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'share') };
  const stderr = [];
  const first = spawn(bin, ['--data-dir', dataDir], { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  first.stderr.on('data', (b) => stderr.push(b));
  let exit = null;
  first.on('exit', (code, signal) => { exit = { code, signal }; });
  const log = () => Buffer.concat(stderr).toString();
  try {
    await until('the first window to render', 30_000, () => exit !== null || log().includes('frontend ready'));
    assert.equal(exit, null, `first instance exited: ${JSON.stringify(exit)} ${log()}`);
    const ids = await until('the first window', 10_000, () => { const w = windowIds(first.pid); return w.length ? w : null; });

    // The second launch, from another directory with a relative path, as a file manager would.
    const started = Date.now();
    const second = spawn(bin, ['--data-dir', dataDir, 'weather.mcpb'], { env: appEnv, cwd: tmp, stdio: ['ignore', 'ignore', 'pipe'] });
    const secondErr = [];
    second.stderr.on('data', (b) => secondErr.push(b));
    const secondExit = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the second launch is still running after 20 s')), 20_000);
      second.on('exit', (code) => { clearTimeout(t); resolve(code); });
    });
    const took = Date.now() - started;
    console.log(`second launch exited with ${secondExit} after ${took} ms`);
    assert.equal(windowIds(second.pid).length, 0, 'the second launch opened no window');

    await until('the first window to receive the file', 10_000, () => log().includes(`file opened path=${bundle}`));
    assert.match(log(), /second launch files=1/);
    assert.equal(exit, null, 'the first instance keeps running');
    // The window shows the file on the Servers page.
    await new Promise((r) => setTimeout(r, 1500)); // let WebKit paint before the screenshot (not a sync point: the log above is)
    execFileSync('import', ['-window', ids[0], '-silent', path.join(env('E2E_ARTIFACTS'), 'single-instance-file.png')], { timeout: 10_000 });
  } finally {
    if (exit === null) first.kill('SIGTERM');
    await until('the first instance to exit', 10_000, () => exit !== null).catch(() => first.kill('SIGKILL'));
    rmSync(tmp, { recursive: true, force: true });
  }
});
