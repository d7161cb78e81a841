// The first hour, as a new user meets it, at the smallest and a large window:
// a Claude Desktop config with four valid servers and one broken entry is
// found on the welcome page ("5 servers, 1 needs attention": every entry counts), imported, a
// model provider added, a chat runs a tool call with approval, the answer is
// retried, an earlier message edited and resent, and the chat exported to a
// file. It runs once, on a private copy of the app with a throw-away HOME
// (discovery looks there) and data dir, at 720×600 (the narrow layout: the
// chat list in the drawer, the chat's controls in its "⋯" menu); each step
// is saved at both sizes, checked there where it says so, and the Tools
// menu is opened at both (the header's two forms).
// Screenshots: firsthour-<width>-<step>.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerSaveDialog, chatControls, env, launch, modelRequests, resetModel, scriptModel, screenshot, startOwnApp } from '../lib.mjs';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const npmBin = path.join(repo, 'mcpmanager', 'testdata', 'npm', 'node_modules', '.bin');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const SIZES = [[720, 600], [1920, 1080]];
const COMPACT_BELOW = 700; // the chat header's (ChatHeader.tsx)

test('the first hour at 720×600 and 1920×1080: welcome, import, provider, chat with approval, retry, edit, export', async () => {
  const [width, height] = SIZES[0]; // the flow's size
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-firsthour-'));
  const home = path.join(tmp, 'home');
  const docs = path.join(home, 'Documents');
  mkdirSync(docs, { recursive: true });
  const claude = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claude), { recursive: true });
  writeFileSync(claude, JSON.stringify({
    mcpServers: {
      memory: { command: path.join(npmBin, 'mcp-server-memory'), env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
      everything: { command: path.join(npmBin, 'mcp-server-everything') },
      filesystem: { command: path.join(npmBin, 'mcp-server-filesystem'), args: [docs] },
      remote: { type: 'http', url: env('E2E_REMOTE_URL') },
      weather: { args: ['weather-server.js'], env: { WEATHER_API_KEY: 'x' } }, // no command: needs attention
    },
  }, null, 2));
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const app = await startOwnApp({
    browser,
    dataDir,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(tmp, 'share'), OLLAMA_HOST: '127.0.0.1:9' },
  });
  const page = await browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('pageerror', (e) => { if (!String(e.stack).includes('/wails/ipc.js')) errors.push(e); });
  // shot saves the page at each size (after scrolling target into view,
  // and checking it does not scroll sideways when sideways is set), then
  // goes back to the flow's size.
  const shot = async (step, { target, sideways = false } = {}) => {
    for (const [w, h] of SIZES) {
      await resize(page, w, h);
      await target?.scrollIntoViewIfNeeded();
      if (sideways) await noSideScroll(page);
      await screenshot(page, `firsthour-${w}-${step}`);
    }
    await resize(page, width, height);
  };
  try {
    await page.goto(app.url + '/');
    await page.waitForFunction(() => typeof window.go?.gui?.WelcomePage?.Welcome === 'function');

    // 1. The welcome page finds the config, broken entry and all.
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor();
    const configs = page.getByRole('list', { name: 'Configs found on this machine' });
    await configs.getByText('Claude Desktop', { exact: true }).waitFor();
    assert.match(await configs.textContent(), /5 servers, 1 needs attention/);
    await shot('1-welcome', { sideways: true });

    // 2. Import: the preview marks the broken entry, four are imported,
    //    the wizard says so and offers Close.
    await configs.getByRole('button', { name: /^Import 5 servers from Claude Desktop/ }).click();
    const wizard = page.getByRole('region', { name: 'Import servers' });
    const preview = wizard.getByRole('table', { name: 'Import preview' });
    await preview.locator('tr[data-outcome="invalid"]').getByRole('cell', { name: 'weather', exact: true }).waitFor();
    await shot('2-import-preview', { target: preview });
    await wizard.getByRole('button', { name: 'Import 4 servers' }).click();
    await wizard.getByRole('status').getByText(/^Imported 4 servers: memory, everything, filesystem, remote\./).waitFor();
    assert.equal(await wizard.getByRole('button', { name: /^Import \d/ }).count(), 0, 'no second Import after importing');
    // The preview (its "new" and add/skip) gives way to what became of each server.
    assert.equal(await preview.count(), 0, 'the preview is gone after the import');
    assert.match(await wizard.getByRole('list', { name: 'Import result' }).innerText(), /memory: imported[\s\S]*weather: not imported/);
    await shot('3-imported', { target: wizard.getByRole('status') });
    await wizard.getByRole('button', { name: 'Close', exact: true }).click();
    await configs.getByText('Imported', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor({ state: 'detached' });
    const cfg = JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8'));
    assert.deepEqual(Object.keys(cfg.mcpServers).sort(), ['everything', 'filesystem', 'memory', 'remote']);

    // The imported servers start on the Servers page.
    await page.keyboard.press('Control+2');
    const servers = page.getByRole('list', { name: 'Servers' });
    for (const name of ['memory', 'everything', 'filesystem', 'remote']) {
      await servers.getByRole('listitem', { name, exact: true }).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
    }
    await shot('3b-servers');

    // 3. A model provider, added in Settings.
    await page.keyboard.press('Control+7');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('form', { name: 'Provider' });
    await form.getByLabel('Name', { exact: true }).fill('Local');
    await form.getByLabel('Base URL').fill(`${env('E2E_FAKELLM_URL')}/v1`);
    await form.getByLabel('Default model').fill('fake-model');
    await shot('4-provider');
    await form.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: 'Local' }).waitFor();

    // 4. A chat whose tool call asks first (it writes a file) and runs once allowed.
    await resetModel();
    await page.keyboard.press('Control+1');
    // Below 1000 px the chat list is in the drawer, behind the menu button.
    const menu = page.getByRole('button', { name: 'Menu and chats' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('button', { name: 'New chat' }).first().click();
    if ((await menu.count()) && (await menu.getAttribute('aria-expanded')) === 'true') await page.keyboard.press('Escape');
    const box = page.getByRole('textbox', { name: 'Message' });
    // With four servers and the built-ins the tool definitions take more
    // than a quarter of the window assumed for a model the provider does
    // not describe: the Tools menu says tool search is on, and why. It is
    // opened at each size: narrow from the "⋯" menu, wide from the header.
    for (const [w, h] of SIZES) {
      await resize(page, w, h);
      await chatControls(page);
      await page.getByRole('button', { name: /^Tools: \d+/ }).click();
      const why = page.getByRole('dialog', { name: 'Tools for this chat' }).getByRole('note', { name: 'Tool search' });
      await why.getByText(/Tool search is on/).waitFor();
      await screenshot(page, `firsthour-${w}-4b-tool-search`);
      await page.keyboard.press('Escape');
      if (await page.getByRole('dialog', { name: 'Chat options' }).count()) await page.keyboard.press('Escape');
    }
    await resize(page, width, height);
    const note = path.join(docs, 'hello.txt');
    // Tool search is on: the model first finds the tool, then calls it.
    await scriptModel(
      { toolCalls: [{ id: 'call_0', name: 'find_tools', arguments: JSON.stringify({ query: 'write a file' }) }] },
      { toolCalls: [{ id: 'call_1', name: 'filesystem__write_file', arguments: JSON.stringify({ path: note, content: 'written in the first hour' }) }] },
      { text: 'I wrote hello.txt in your Documents.' },
    );
    await box.fill('Write a note into my Documents');
    await box.press('Enter');
    const card = page.getByTestId('approval-card');
    await card.waitFor();
    assert.match(await card.textContent(), /filesystem__write_file/);
    await shot('5-approval', { sideways: true });
    await card.getByRole('button', { name: 'Allow once' }).click();
    await page.getByText('I wrote hello.txt in your Documents.').waitFor();
    assert.equal(readFileSync(note, 'utf8'), 'written in the first hour', 'the server wrote into the folder it was set up for');
    await shot('6-tool-call');

    await firstHourChatActions({ page, box, shot, tmp });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await app.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

/**
 * resize sets the window's size and waits until the chat header, if one is
 * shown, has taken the form for its new width (it measures itself with a
 * ResizeObserver, a frame or more later): until then it can show the
 * controls its "⋯" menu is about to hide, and chatControls would take them
 * for the ones to click.
 */
async function resize(page, width, height) {
  await page.setViewportSize({ width, height });
  await page.waitForFunction((below) => {
    const h = document.querySelector('.chat-header');
    return !h || (h.getBoundingClientRect().width < below) === h.classList.contains('compact');
  }, COMPACT_BELOW);
}

/** noSideScroll fails when the page scrolls sideways. */
async function noSideScroll(page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `the page scrolls sideways: ${scroll} > ${client}`);
}

/** firstHourChatActions: retry the answer, edit an earlier message and resend, export to a file. */
async function firstHourChatActions({ page, box, shot, tmp }) {
  const answers = page.getByTestId('message-assistant');
  const questions = page.getByTestId('message-user');
  const done = page.locator('[data-testid="message-assistant"][data-status="complete"]');

  // A second exchange, then Retry on its answer: the new answer replaces it.
  await scriptModel({ text: 'You are welcome, the first answer.' });
  await box.fill('Thank you!');
  await box.press('Enter');
  await page.getByText('You are welcome, the first answer.').waitFor();
  await done.last().waitFor();
  await scriptModel({ text: 'Glad to help, the retried answer.' });
  await answers.last().hover();
  await answers.last().getByRole('button', { name: /^Retry/ }).click();
  await page.getByText('Glad to help, the retried answer.').waitFor();
  await page.getByText('You are welcome, the first answer.').waitFor({ state: 'detached' });
  await done.last().waitFor();
  await shot('7-retried');

  // Edit the first message and resend: it asks first, then the later
  // messages are replaced by the new answer.
  await scriptModel({ text: 'Nothing was written this time.' });
  await questions.first().hover();
  await questions.first().getByRole('button', { name: 'Edit and resend this message' }).click();
  const edit = page.getByRole('textbox', { name: 'Edit message' });
  await edit.fill('Do not write anything, just say hello');
  await page.getByRole('button', { name: 'Resend', exact: true }).click();
  const ask = page.getByRole('alertdialog', { name: 'Replace the later messages?' });
  await ask.waitFor();
  await shot('8-edit-confirm');
  await ask.getByRole('button', { name: 'Replace and resend' }).click();
  await page.getByText('Nothing was written this time.').waitFor();
  await page.getByText('Thank you!').waitFor({ state: 'detached' });
  assert.equal(await questions.count(), 1);
  const sent = JSON.stringify((await modelRequests()).at(-1));
  assert.match(sent, /just say hello/);
  assert.doesNotMatch(sent, /Thank you/, 'the replaced messages are not sent');
  await shot('9-edited', { sideways: true });

  // Export to a file through the system's save dialog (a real GTK dialog in
  // the app's window on the test display, answered with xdotool).
  await chatControls(page);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const exp = page.getByRole('dialog', { name: 'Export chat' });
  await exp.getByRole('button', { name: 'Save to file…' }).click();
  const out = path.join(tmp, 'first-hour.md');
  await answerSaveDialog('Export chat', out);
  await exp.getByRole('status').getByText(out).waitFor({ timeout: 30_000 });
  const md = readFileSync(out, 'utf8');
  assert.match(md, /just say hello/);
  assert.match(md, /Nothing was written this time\./);
  await shot('10-exported');
}
