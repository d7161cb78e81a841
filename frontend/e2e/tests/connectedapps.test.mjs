// Connected apps: a private copy of the app with a throw-away HOME holding
// Cursor's ~/.cursor/mcp.json (one server of its own). The page lists
// Cursor as found and not connected (and the apps not installed); Connect…
// shows the exact change to the file; Connect writes it (the file on disk
// has the switchboard entry running 'serve --client cursor', the rest byte
// for byte); Disconnect… asks and puts the file back exactly as it was.
// Screenshots at 720, 1280 and 1920 px: connectedapps-<width>-<step>.png
// (one run, each step saved at every width).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, screenshot, startOwnApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const original = `{
  // Cursor's own servers
  "mcpServers": {
    "notes": { "command": "node", "args": ["notes.js"] }
  }
}
`;

// One app and one flow; at each step the page is checked (no sideways
// scroll) and saved at every width, and the next step's clicks are made at
// the next width in turn (so each width has its buttons clicked).
const SIZES = [[720, 600], [1280, 800], [1920, 1080]];

test('Connected apps at 720×600, 1280×800 and 1920×1080: preview, connect, the file on disk, disconnect', async () => {
  // The entry names the binary the tests built (it exists: an entry whose command is gone
  // needs repair, and the page says so).
  const command = process.env.SWITCHBOARD_BIN;
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-apps-'));
  const home = path.join(tmp, 'home');
  const cursor = path.join(home, '.cursor', 'mcp.json');
  mkdirSync(path.dirname(cursor), { recursive: true });
  writeFileSync(cursor, original);
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const app = await startOwnApp({
    browser,
    dataDir,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(tmp, 'share'), SWITCHBOARD_COMMAND: command, OLLAMA_HOST: '127.0.0.1:9' },
  });
  const page = await browser.newPage({ viewport: { width: SIZES[0][0], height: SIZES[0][1] } });
  const errors = [];
  page.on('pageerror', (e) => { if (!String(e.stack).includes('/wails/ipc.js')) errors.push(e); });
  let step = 0;
  // shot saves the page at every width, none scrolling sideways, then
  // leaves the window at the width the next step's clicks are made at.
  const shot = async (name) => {
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(scroll <= 0, `${name}: the page scrolls sideways by ${scroll}px at ${width}px`);
      await screenshot(page, `connectedapps-${width}-${name}`);
    }
    step++;
    const [width, height] = SIZES[step % SIZES.length];
    await page.setViewportSize({ width, height });
  };
  try {
    await page.goto(app.url + '/');
    await page.waitForFunction(() => typeof window.go?.gui?.ClientsPage?.ClientApps === 'function');
    await page.evaluate(() => window.go.gui.WelcomePage.FinishWelcome());
    await page.goto(app.url + '/#/apps');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Connected apps' }).waitFor();
    const found = page.getByRole('region', { name: 'Apps on this computer' });
    const row = found.getByRole('listitem', { name: 'Cursor', exact: true });
    await row.waitFor();
    assert.match(await row.textContent(), /not connected/);
    assert.match(await row.textContent(), /1 server of its own/);
    assert.match(await page.getByRole('region', { name: 'Apps not installed' }).textContent(), /Claude Desktop/);
    await shot('1-list');

    // Preview: the exact change, nothing written yet.
    await row.getByRole('button', { name: 'Connect…' }).click();
    const preview = row.getByRole('region', { name: 'Connect Cursor: preview' });
    await preview.waitFor();
    const diff = await preview.getByLabel(`Change to ${cursor}`).textContent();
    assert.match(diff, /\+ .*"switchboard"/);
    assert.match(diff, /serve.*--client.*cursor/);
    assert.equal(readFileSync(cursor, 'utf8'), original, 'a preview writes nothing');
    await shot('2-preview');

    // Connect: the file on disk has the entry; the rest stays.
    await preview.getByRole('button', { name: 'Connect', exact: true }).click();
    await row.getByRole('status').waitFor();
    const connected = readFileSync(cursor, 'utf8');
    const entry = JSON.parse(connected.replace(/^\s*\/\/.*$/m, '')).mcpServers.switchboard;
    assert.equal(entry.command, command);
    assert.deepEqual(entry.args.slice(0, 3), ['serve', '--client', 'cursor']);
    assert.match(connected, /\/\/ Cursor's own servers/, 'the comment stays');
    assert.match(connected, /"notes": \{ "command": "node", "args": \["notes.js"\] \}/, 'its own server stays as it was');
    await row.getByText('connected', { exact: true }).waitFor();
    // This app's Switchboard (a fresh data dir) has no servers: in place of
    // the choice of the servers Cursor sees, a sentence says so.
    await row.getByText(/^Switchboard has no servers yet: add some on the Servers page/).waitFor();
    assert.equal(await row.getByRole('group', { name: 'Servers Cursor sees' }).count(), 0);
    await shot('3-connected');

    // Disconnect asks first, then the file is as it was, byte for byte.
    await row.getByRole('button', { name: 'Disconnect…' }).click();
    const confirm = row.getByRole('region', { name: 'Disconnect Cursor: preview' });
    await confirm.waitFor();
    assert.match(await confirm.textContent(), /- .*"switchboard"/);
    await shot('4-disconnect');
    await confirm.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await row.getByText('not connected', { exact: true }).waitFor();
    assert.equal(readFileSync(cursor, 'utf8'), original, 'disconnect puts the file back byte for byte');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await app.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
