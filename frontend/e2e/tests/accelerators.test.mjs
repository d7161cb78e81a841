// The menus' keyboard shortcuts in the real window: the production binary
// under Xvfb, keys typed through XTEST (xdotool) as a person's would be, so
// GTK's menu accelerators (menu.go) and the page's key handler both get
// their chance. Every shortcut of the table (frontend/src/shortcuts.gen.ts,
// from app/gui/shortcuts.go) that a menu lists is pressed, and what it did
// is read from outside the page: the window's title names the page (or the
// open chat), the shortcuts sheet changes what the window shows, Quit ends
// the app. A new page or command in the table is tested here without an
// edit; a command this test does not know fails it until it says what the
// command shows. Screenshots at 1280 px: the shortcuts sheet and the File
// menu open (accelerators-sheet.png, accelerators-file-menu.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '../lib.mjs';

const table = path.resolve(import.meta.dirname, '..', '..', 'src', 'shortcuts.gen.ts');

/** shortcuts reads the generated table: { id, label, keys, menu } for each line. */
function shortcuts() {
  const text = readFileSync(table, 'utf8');
  const rows = [...text.matchAll(/\{ id: "([^"]+)", label: "([^"]*)", keys: "([^"]*)", menu: "([^"]*)" \}/g)]
    .map(([, id, label, keys, menu]) => ({ id, label, keys, menu }));
  const pages = [...text.matchAll(/\{ id: "([^"]+)", title: "([^"]*)" \}/g)].map(([, id, title]) => ({ id, title }));
  assert.ok(rows.length > 0 && pages.length > 0, `no shortcuts or pages read from ${table}`);
  return { rows, pages };
}

/** xdoKeys turns the table's "CmdOrCtrl+," into xdotool's "ctrl+comma". */
function xdoKeys(keys) {
  const names = { ',': 'comma', '/': 'slash', '.': 'period', ';': 'semicolon', '=': 'equal', '-': 'minus' };
  return keys.split(/\+(?=.)/).map((k) => {
    if (k === 'CmdOrCtrl') return 'ctrl';
    if (k === 'Shift' || k === 'Alt') return k.toLowerCase();
    return names[k] ?? (k.length === 1 ? k.toLowerCase() : k);
  }).join('+');
}

async function until(what, timeoutMs, fn) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const xdo = (...args) => execFileSync('xdotool', args, { encoding: 'utf8' }).trim();

function windowOf(pid) {
  try {
    return xdo('search', '--all', '--onlyvisible', '--pid', String(pid), '--name', '(^|— )Switchboard$').split('\n').filter(Boolean)[0];
  } catch {
    return undefined; // xdotool exits 1 when nothing matches
  }
}

/** shot saves the window (or, with root, the whole screen cropped to the window, menus included) as a PNG. */
function shot(win, file, { root = false } = {}) {
  if (!root) {
    execFileSync('import', ['-window', win, '-silent', file], { timeout: 10_000 });
    return file;
  }
  const g = Object.fromEntries(xdo('getwindowgeometry', '--shell', win).split('\n').map((l) => l.split('=')));
  execFileSync('import', ['-window', 'root', '-silent', file], { timeout: 10_000 });
  execFileSync('convert', [file, '-crop', `${g.WIDTH}x${g.HEIGHT}+${g.X}+${g.Y}`, '+repage', file], { timeout: 10_000 });
  return file;
}

/** differingPixels counts the pixels that differ between two same-sized PNGs (ImageMagick's compare). */
function differingPixels(a, b) {
  try {
    execFileSync('compare', ['-metric', 'AE', a, b, 'null:'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return 0;
  } catch (err) {
    // compare exits 1 when the images differ and writes the count to stderr.
    const n = Number.parseFloat(String(err.stderr));
    if (Number.isNaN(n)) throw err;
    return n;
  }
}

test('every menu shortcut of the table does what it says in the real window', async () => {
  const bin = env('SWITCHBOARD_BIN');
  const artifacts = env('E2E_ARTIFACTS');
  const { rows, pages } = shortcuts();
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-keys-'));
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The welcome page was done: the window opens on its pages.
  writeFileSync(path.join(dataDir, 'ui.json'), JSON.stringify({ welcomeDone: true }));
  const stderr = [];
  const app = spawn(bin, ['--data-dir', dataDir], {
    env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'share') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  app.stderr.on('data', (b) => stderr.push(b));
  let exit = null;
  app.on('exit', (code, signal) => { exit = { code, signal }; });
  const log = () => Buffer.concat(stderr).toString();
  try {
    await until('the window to render', 30_000, () => exit !== null || log().includes('frontend ready'));
    assert.equal(exit, null, `the app exited: ${JSON.stringify(exit)} ${log()}`);
    const win = await until('the window', 10_000, () => windowOf(app.pid));
    xdo('windowmove', '--sync', win, '0', '0');
    xdo('windowsize', '--sync', win, '1280', '800');
    // No window manager on the test display: focus the window directly.
    xdo('windowfocus', '--sync', win);
    const title = () => xdo('getwindowname', win);
    const pageTitle = (id) => `${pages.find((p) => p.id === id).title} — Switchboard`;
    await until('the title to name the Chat page', 10_000, () => title() === pageTitle('chat'));

    const press = (keys) => xdo('key', '--clearmodifiers', xdoKeys(keys));
    const keyOf = (id) => rows.find((r) => r.id === id)?.keys;
    // The Chat page is titled by its open chat once there is one (after New chat).
    const chatTitles = [pageTitle('chat'), 'Untitled chat — Switchboard'];
    const shows = (want) => (want === pageTitle('chat') ? chatTitles.includes(title()) : title() === want);
    const titled = (want, what) => until(() => `${what}: the title "${want}" (it is "${title()}")`, 10_000, () => shows(want));

    // What each command shows; a page shows its title.
    const expected = {
      newChat: 'Untitled chat — Switchboard', // a new chat, open on the Chat page
      import: pageTitle('servers'), // the Servers page, its import open
      settings: pageTitle('settings'),
    };
    const pressed = [];
    for (const s of rows.filter((r) => r.menu !== '' && r.keys !== '')) {
      if (s.id === 'quit') continue; // last, below
      if (s.id === 'shortcuts') continue; // below: a sheet over the page, seen on screen
      let want;
      if (s.id.startsWith('page:')) want = pageTitle(s.id.slice('page:'.length));
      else want = expected[s.id];
      assert.ok(want, `the table binds ${s.keys} to "${s.id}", which this test does not know: say what it shows in 'expected'`);
      if (shows(want)) {
        // Already there: go elsewhere first, so the key has something to change.
        const other = pages.find((p) => p.id !== 'chat' && pageTitle(p.id) !== want && keyOf(`page:${p.id}`));
        press(keyOf(`page:${other.id}`));
        await titled(pageTitle(other.id), `${keyOf(`page:${other.id}`)} first`);
      }
      press(s.keys);
      await titled(want, `${s.keys} (${s.label})`);
      pressed.push(`${s.keys} → ${want}`);
    }
    console.log(`pressed: ${pressed.join('; ')}`);
    assert.ok(pressed.length >= pages.filter((_, i) => i < 9).length, 'every page with a key was visited');

    // The shortcuts sheet: it covers the page, and Esc takes it away.
    press(keyOf('page:servers'));
    await titled(pageTitle('servers'), 'back to Servers');
    await new Promise((r) => setTimeout(r, 1000)); // let WebKit paint (the title above is the sync point)
    const before = shot(win, path.join(tmp, 'before.png'));
    press(keyOf('shortcuts'));
    const sheet = path.join(artifacts, 'accelerators-sheet.png');
    const changed = await until('the shortcuts sheet on screen', 10_000, () => differingPixels(before, shot(win, sheet)) > 20_000);
    assert.ok(changed);
    await new Promise((r) => setTimeout(r, 500)); // the sheet's own fade-in, for the screenshot kept
    shot(win, sheet);
    press('Escape');
    await until('the sheet to go', 10_000, () => differingPixels(before, shot(win, path.join(tmp, 'after.png'))) < 2_000);
    assert.equal(title(), pageTitle('servers'), 'the sheet leaves the page where it was');

    // The File menu, opened with the mouse, as its screenshot at 1280 px.
    xdo('mousemove', '--window', win, '20', '12');
    xdo('click', '1');
    const menu = path.join(artifacts, 'accelerators-file-menu.png');
    await new Promise((r) => setTimeout(r, 700)); // GTK maps the menu's own window
    shot(win, menu, { root: true });
    xdo('key', 'Escape');
    xdo('windowfocus', '--sync', win);

    // Quit: the app ends, cleanly.
    const quit = keyOf('quit');
    if (quit) {
      press(quit);
      await until('the app to quit', 20_000, () => exit !== null);
      assert.deepEqual(exit, { code: 0, signal: null }, log());
    }
  } finally {
    if (exit === null) app.kill('SIGTERM');
    await until('the app to exit', 20_000, () => exit !== null).catch(() => app.kill('SIGKILL'));
    rmSync(tmp, { recursive: true, force: true });
  }
});
