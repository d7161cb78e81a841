// MCP Apps' 2026 additions (ext-apps 2.x), driven through a real app: the
// extapp test server (the testserver's mode extapp), whose page uses the
// SDK's own App class from the pinned @modelcontextprotocol/ext-apps. Full
// screen is refused until the user acts inside the app, then granted;
// picture-in-picture floats over the chat; a file the app saves is asked
// about, goes through the system's save dialog (a real GTK dialog on the
// test display, answered with xdotool) and lands under its sanitised name;
// the app's sampling request shows the sampling card; and an app that asks
// to be closed is torn down (told first) and leaves an end state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerSaveDialog, env, launch, openApp, resetModel, screenshot, scriptModel as script, testServer, untilInPage } from '../lib.mjs';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const sdk = path.join(repo, 'mcpmanager', 'apps', 'testdata', 'npm', 'node_modules', '@modelcontextprotocol', 'ext-apps', 'dist', 'src', 'app-with-deps.js');
const configPath = () => path.join(env('E2E_DATA_DIR'), 'config.json');
function editServers(fn) {
  const cfg = JSON.parse(readFileSync(configPath(), 'utf8'));
  fn(cfg.mcpServers);
  writeFileSync(configPath(), JSON.stringify(cfg, null, 2));
}
// The save dialog opens in the user's downloads folder: XDG_DOWNLOAD_DIR of
// the app's (private) XDG_CONFIG_HOME, pointed here at a folder of this test.
const userDirs = () => path.join(env('XDG_CONFIG_HOME'), 'user-dirs.dirs');

let browser;
let tmp;
let downloads;
before(async () => {
  browser = await launch();
  tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-apps2026-e2e-'));
  downloads = path.join(tmp, 'downloads');
  mkdirSync(downloads);
  mkdirSync(env('XDG_CONFIG_HOME'), { recursive: true });
  assert.ok(!existsSync(userDirs()), 'user-dirs.dirs exists already: this test would replace it');
  writeFileSync(userDirs(), `XDG_DOWNLOAD_DIR="${downloads}"\n`);
  const bin = path.join(tmp, 'extapp');
  // The testserver serves the mode it is named after (extapp).
  testServer(bin);
  editServers((s) => { s.ext = { command: bin, args: [sdk] }; });
});
after(async () => {
  editServers((s) => { delete s.ext; });
  rmSync(userDirs(), { force: true });
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** app is the app's own document inside a card: proxy frame → inner frame. */
const app = (card) => card.frameLocator('[data-testid="app-frame"]').frameLocator('iframe');

/** said is what the app wrote of an attempt k ("k: what"), once it has. */
async function said(view, k, pattern = /./) {
  const li = view.locator(`li[data-attempt="${k}"]`).filter({ hasText: pattern }).last();
  await li.waitFor({ timeout: 30_000 });
  return (await li.textContent()).replace(/^[^:]+: /, '');
}

/** shots saves the page at 720, 1280 and 1920 px wide, then goes back to 1200. */
async function shots(page, name) {
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
}

test('an ext-apps 2.x app: full screen only after a gesture, pip, a download saved under its safe name, sampling, and closing itself', async () => {
  await resetModel();
  const { page, errors } = await openApp(browser, { hash: '#/chat' });
  await untilInPage(page, async () => (await window.go.gui.ToolsPage.Tools()).tools.some((t) => t.name === 'ext__show'),
    null, { timeout: 90_000, what: 'the tool ext__show' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(
    { toolCalls: [{ id: 'call_x', name: 'ext__show', arguments: '{}' }] },
    { text: 'Here is the test app.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Show the test app');
  await box.press('Enter');
  await page.getByText('Here is the test app.').waitFor();
  const card = page.getByTestId('tool-card').last();
  const view = app(card);
  const host = card.getByTestId('app-host');

  // The app saw the new capabilities, and its full screen request on load (no gesture) was refused with a reason.
  assert.equal(await said(view, 'ready'), 'yes');
  assert.equal(await said(view, 'caps'), 'downloadFile,sampling');
  assert.match(await said(view, 'display-fullscreen'), /^refused: .*Full screen needs a user gesture: ask from a click or key press inside the app/);
  assert.equal(await host.getAttribute('data-mode'), 'inline');

  // A click inside the app is a gesture: now full screen is granted, and the app is told.
  await view.getByRole('button', { name: 'Full screen' }).click();
  assert.equal(await said(view, 'display-fullscreen', /fullscreen$/), 'fullscreen');
  await page.locator('[data-testid="app-host"][data-mode="fullscreen"]').waitFor();
  await view.locator('#mode').filter({ hasText: 'fullscreen' }).waitFor();
  await screenshot(page, 'apps2026-fullscreen');
  await page.getByRole('button', { name: 'Exit full screen' }).click();
  await page.locator('[data-testid="app-host"][data-mode="inline"]').waitFor();

  // Picture-in-picture: a small window at the bottom right, the card says where the app went.
  await view.getByRole('button', { name: 'Picture in picture' }).click();
  const pip = page.getByRole('region', { name: 'App of ext (picture-in-picture)' });
  await pip.waitFor();
  await card.getByText('is in the small window at the bottom right').waitFor();
  await view.locator('#mode').filter({ hasText: 'pip' }).waitFor();
  const r = await pip.boundingBox();
  const vp = page.viewportSize();
  // Bottom right, clear of the composer (Send stays clickable), small.
  const send = await page.getByRole('button', { name: 'Send', exact: true }).boundingBox();
  assert.ok(r.x + r.width > vp.width - 40 && r.y + r.height <= send.y && r.width <= 400, `pip at ${JSON.stringify(r)}, Send at ${JSON.stringify(send)}`);
  await shots(page, 'apps2026-pip');
  await pip.getByRole('button', { name: 'Back into the chat' }).click();
  await page.locator('[data-testid="app-host"][data-mode="inline"]').waitFor();

  // A download is asked about first, naming the safe file name and size; Cancel saves nothing.
  await view.getByRole('button', { name: 'Download report', exact: true }).click();
  const ask = card.getByRole('alertdialog', { name: 'The app wants to save a file' });
  await ask.waitFor();
  assert.match(await ask.innerText(), /Q4 reportfinal\.csv \(20 bytes\)/);
  await card.scrollIntoViewIfNeeded();
  await shots(page, 'apps2026-download-ask');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await said(view, 'download'), 'not saved');
  // Agreed, the system's save dialog offers the safe name in the downloads folder; saved, the file is there.
  await view.getByRole('button', { name: 'Download report', exact: true }).click();
  await ask.getByRole('button', { name: 'Save…' }).click();
  await answerSaveDialog('Save a file from ext');
  assert.equal(await said(view, 'download', /: saved$/), 'saved');
  assert.equal(readFileSync(path.join(downloads, 'Q4 reportfinal.csv'), 'utf8'), 'quarter,total\nQ4,42\n');
  // A linked resource of the app's own server is read from it and saved the same way.
  await view.getByRole('button', { name: 'Download linked report' }).click();
  await ask.getByRole('button', { name: 'Save…' }).click();
  await answerSaveDialog('Save a file from ext');
  assert.equal(await said(view, 'link'), 'saved');
  assert.equal(readFileSync(path.join(downloads, 'Linked report.csv'), 'utf8'), 'quarter,total\nQ4,42\n');

  // The app asks the model: the sampling card names the app; allowed, the answer reaches the app.
  await script({ text: 'Q4 was fine.' });
  await view.getByRole('button', { name: 'Ask the model' }).click();
  const approval = page.getByTestId('approval-card');
  await approval.waitFor();
  assert.match(await approval.innerText(), /The app of ext \(ui:\/\/extapp\/app\.html\) asks to use the model/);
  assert.match(await approval.innerText(), /Summarise Q4 in one line\./);
  await screenshot(page, 'apps2026-sampling');
  await approval.getByRole('button', { name: 'Allow once' }).click();
  assert.equal(await said(view, 'sampling'), 'Q4 was fine.');

  // The app asks to be closed: it is told first (ui/resource-teardown, noted on its server), then the card says it closed.
  await view.getByRole('button', { name: 'Close the app' }).click();
  const ended = card.getByRole('status').filter({ hasText: 'The app of ext closed itself.' });
  await ended.waitFor();
  assert.equal(await card.getByTestId('app-frame').count(), 0);
  const hits = await untilInPage(page, async () => {
    const r = JSON.parse((await window.go.gui.ToolsPage.CallTool('ext__hits', '{}')).content[0].text);
    return r.teardowns >= 1 && r;
  }, null, { what: 'the app noting its teardown' });
  assert.equal(hits.teardowns, 1);
  await card.scrollIntoViewIfNeeded();
  await shots(page, 'apps2026-closed');
  // And it can be shown again.
  await ended.getByRole('button', { name: 'Show it again' }).click();
  assert.equal(await said(view, 'ready'), 'yes');

  assert.deepEqual(errors, []);
  await page.close();
});
