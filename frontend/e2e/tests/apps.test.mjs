// MCP Apps: the real example servers from npm (server-basic-vanillajs,
// server-basic-react, pinned under mcpmanager/apps/testdata/npm) render
// their app on the Tools page under the tool's result, and the app calls a
// server tool through the host. A hostile app
// (the testserver's mode hostileapp) tries to break out of a chat card,
// and fails. In a long, virtualised chat an app card scrolled out of view
// keeps its app (no frame dropped without ui/resource-teardown).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, modelRequests, resetModel, screenshot, scriptModel as script, seedChat, sharedApp, testServer, untilInPage } from '../lib.mjs';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const appsBin = path.join(repo, 'mcpmanager', 'apps', 'testdata', 'npm', 'node_modules', '.bin');
// The servers are added the way a user's editor would: config.json, which the window follows.
const configPath = () => path.join(env('E2E_DATA_DIR'), 'config.json');
function editServers(fn) {
  const cfg = JSON.parse(readFileSync(configPath(), 'utf8'));
  fn(cfg.mcpServers);
  writeFileSync(configPath(), JSON.stringify(cfg, null, 2));
}

let browser;
let tmp;
before(async () => {
  browser = await launch();
  tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-apps-e2e-'));
  const hostile = path.join(tmp, 'hostileapp');
  // The testserver serves the mode it is named after (hostileapp).
  testServer(hostile);
  editServers((s) => {
    s.vanilla = { command: path.join(appsBin, 'mcp-server-basic-vanillajs'), args: ['--stdio'] };
    s.react = { command: path.join(appsBin, 'mcp-server-basic-react'), args: ['--stdio'] };
    s.hostile = { command: hostile };
  });
});
after(async () => {
  editServers((s) => { delete s.vanilla; delete s.react; delete s.hostile; });
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** waitTools waits until the window's registry lists every name. */
async function waitTools(page, names) {
  await untilInPage(page, async (want) => {
    const list = await window.go.gui.ToolsPage.Tools();
    const have = new Set(list.tools.map((t) => t.name));
    return want.every((n) => have.has(n));
  }, names, { timeout: 90_000, what: `the tools ${names.join(', ')}` });
}

/** diag is what the window's registry says now: for a failure's message. */
async function diag(page) {
  return page.evaluate(async () => {
    const list = await window.go.gui.ToolsPage.Tools();
    const servers = await window.go.gui.ServersPage.Servers();
    return JSON.stringify({
      tools: list.tools.length, errors: list.errors,
      servers: servers.map((s) => `${s.name}:${s.state}:pid ${s.pid}:restarts ${s.restarts}:tools ${s.toolCount}:${s.error}`),
    });
  }).catch((e) => `diag failed: ${e.message}`);
}

/** app is the app's own document inside a card: proxy frame → inner frame. */
const app = (card) => card.frameLocator('[data-testid="app-frame"]').frameLocator('iframe');


test('an MCP App renders in its tool card, calls its server, follows the theme and comes back with the chat', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await waitTools(page, ['vanilla__get-time', 'react__get-time', 'hostile__show']);
  // get-time asks first (set here, so the test does not depend on the server's annotations).
  await page.evaluate(async () => {
    for (const t of ['vanilla__get-time', 'react__get-time']) await window.go.gui.SettingsPage.SetToolPolicy(t, 'ask');
  });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });

  await script(
    { toolCalls: [{ id: 'call_v', name: 'vanilla__get-time', arguments: '{}' }] },
    { text: 'Here is the clock app.' },
  );
  await box.fill('What time is it on the server?');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 })
    .catch(async (e) => {
      await screenshot(page, 'apps-chat-no-approval');
      const card = await page.getByTestId('tool-card').last().innerText().catch(() => '?');
      await page.getByTestId('tool-card').last().getByRole('button').first().click().catch(() => {});
      const opened = await page.getByTestId('tool-card').last().innerText().catch(() => '?');
      const bodies = await modelRequests();
      const offered = bodies.map((b) => (b.tools ?? []).map((t) => t.function?.name ?? t.name).join(','));
      throw new Error(`${e.message}\n${await diag(page)}\ncard: ${card}\nopened: ${opened}\noffered: ${offered.join(' | ')}`);
    });
  await page.getByText('Here is the clock app.').waitFor();
  const card = page.getByTestId('tool-card').last();
  const view = app(card);
  // The tool's result reached the app (ui/notifications/tool-result): it shows the ISO time.
  await view.locator('#server-time').filter({ hasText: /^\d{4}-\d\d-\d\dT/ }).waitFor({ timeout: 30_000 })
    .catch(async (e) => { await screenshot(page, 'apps-chat-failed'); throw e; });
  const first = await view.locator('#server-time').textContent();
  assert.equal(await view.locator('html').getAttribute('data-theme'), 'light');
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'apps-chat-light');

  // A button inside the app calls get-time through the host: the same
  // approval card as the model's calls, then the new time inside the app.
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  const approval = page.getByTestId('approval-card');
  await approval.waitFor();
  assert.match(await approval.textContent(), /vanilla__get-time/);
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await view.locator('#server-time').filter({ hasNotText: first }).waitFor();
  assert.match(await view.locator('#server-time').textContent(), /^\d{4}-\d\d-\d\dT/);

  // The window's theme follows the OS; the app is told (host-context-changed).
  await page.emulateMedia({ colorScheme: 'dark' });
  await view.locator('html[data-theme="dark"]').waitFor();
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'apps-chat-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await view.locator('html[data-theme="light"]').waitFor();

  // The card follows the app's size (ui/notifications/size-changed): taller than the 160 px it starts at.
  const height = await card.getByTestId('app-host').locator('.app-box').evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height > 200 && height <= 720, `the card is ${height} px high`);
  // A link from the app (ui/open-link) asks first; Cancel opens nothing.
  await view.getByRole('button', { name: 'Open Link' }).click();
  const link = card.getByRole('alertdialog', { name: 'The app wants to open a link' });
  await link.waitFor();
  assert.match(await link.innerText(), /https:\/\/modelcontextprotocol\.io\//);
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'apps-chat-open-link');
  await link.getByRole('button', { name: 'Cancel' }).click();
  await link.waitFor({ state: 'detached' });
  // Its log line (notifications/message) lands in the server's log.
  await view.getByRole('button', { name: 'Send Log' }).click();
  await untilInPage(page, async () => (await window.go.gui.ServersPage.ServerLog('vanilla', 200)).some((l) => l.includes('This is log text.')),
    null, { what: "the app's log line in vanilla's log" });
  // A message from the app (ui/message) becomes the user's next message once the user agrees.
  await script({ text: 'Got the message from the app.' });
  await view.getByRole('button', { name: 'Send Message' }).click();
  const msg = card.getByRole('alertdialog', { name: 'The app wants to send a message' });
  assert.match(await msg.innerText(), /This is message text\./);
  await msg.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Got the message from the app.').waitFor();
  await page.getByTestId('message-user').filter({ hasText: 'This is message text.' }).waitFor();

  // The React example renders too.
  await script(
    { toolCalls: [{ id: 'call_r', name: 'react__get-time', arguments: '{}' }] },
    { text: 'And the React one.' },
  );
  await box.fill('And with React?');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  await page.getByText('And the React one.').waitFor();
  const reactCard = page.getByTestId('tool-card').last();
  await app(reactCard).getByText(/\d{4}-\d\d-\d\dT/).first().waitFor({ timeout: 30_000 });

  // Reopened from history, the app renders again with the stored input and result.
  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.ChatPage?.Chats === 'function');
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'What time is it on the server?' }).click();
  await page.getByText('Here is the clock app.').waitFor();
  const again = app(page.getByTestId('tool-card').first());
  await again.locator('#server-time').filter({ hasText: first }).waitFor({ timeout: 30_000 });
  await screenshot(page, 'apps-chat-reopened');

  // The example app leaves the refused link's rejection uncaught, in its own frame: that one is expected.
  assert.deepEqual(errors.filter((e) => !/Link opening denied by user/.test(String(e))), []);
  await page.close();
});

test('in a long, virtualised chat an app card scrolled out of view keeps its app', async () => {
  await resetModel();
  const title = 'Long chat with an app';
  seedChat(title, 100);
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await waitTools(page, ['vanilla__get-time']);
  // Allowed here (no approval in the way), asked again afterwards as the other tests expect.
  await page.evaluate(() => window.go.gui.SettingsPage.SetToolPolicy('vanilla__get-time', 'allow'));
  try {
    await longChatKeepsApp(page, title);
  } finally {
    await page.evaluate(() => window.go.gui.SettingsPage.SetToolPolicy('vanilla__get-time', 'ask'));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

/** longChatKeepsApp is the long-chat test once the chat is seeded and the tool allowed. */
async function longChatKeepsApp(page, title) {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: title, exact: true }).click();
  const list = page.getByLabel('Messages', { exact: true });
  await list.locator('article.message').filter({ hasText: `Message 100 of ${title}:` }).waitFor();
  // Every page loaded (beyond 60 messages the list is virtualised), then back to the end.
  await untilInPage(page, (title) => {
    const el = document.querySelector('[aria-label="Messages"]');
    el.scrollTop = 0;
    return el.classList.contains('virtual') && [...el.querySelectorAll('article.message')].some((a) => a.textContent.includes(`Message 1 of ${title}:`));
  }, title, { what: 'the first message, every page loaded' });
  await list.focus();
  await page.keyboard.press('End');

  await script(
    { toolCalls: [{ id: 'call_long', name: 'vanilla__get-time', arguments: '{}' }] },
    { text: 'The clock, at the end of a long chat.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('What time is it, after all this?');
  await box.press('Enter');
  await list.locator('article.message').filter({ hasText: 'The clock, at the end of a long chat.' }).waitFor();
  // The turn is stored and the tail read again (no message left with seq 0).
  await untilInPage(page, () => ![...document.querySelectorAll('[aria-label="Messages"] article.message')].some((a) => a.dataset.seq === '0'),
    null, { what: 'the stored tail' });
  const card = page.getByTestId('tool-card').last();
  const time = app(card).locator('#server-time').filter({ hasText: /^\d{4}-\d\d-\d\dT/ });
  await time.waitFor({ timeout: 30_000 });
  const shown = await time.textContent();
  await card.getByTestId('app-frame').evaluate((el) => { el.dataset.kept = 'yes'; });

  // Scrolled to the top, far from the card: its row stays rendered, the same frame, out of view.
  await list.focus();
  await page.keyboard.press('Home');
  await untilInPage(page, (title) => [...document.querySelectorAll('[aria-label="Messages"] article.message')].some((a) => a.textContent.includes(`Message 1 of ${title}:`)),
    title, { what: 'the top of the chat' });
  const away = await page.evaluate(() => {
    const box = document.querySelector('[aria-label="Messages"]');
    const f = document.querySelector('[data-testid="app-frame"][data-kept]');
    const r = f?.getBoundingClientRect(), b = box.getBoundingClientRect();
    return { kept: !!f, outOfView: !!r && (r.top > b.bottom || r.bottom < b.top), rows: box.querySelectorAll('article.message').length };
  });
  assert.ok(away.kept, 'the app frame was dropped when its card scrolled out of view');
  assert.ok(away.outOfView, 'the card was still in view at the top of the chat');
  assert.ok(away.rows < 120, `the DOM holds ${away.rows} messages: the list is not virtualised`);

  // Back at the end, the same app shows the same time: it was not loaded again.
  await list.focus();
  await page.keyboard.press('End');
  await card.scrollIntoViewIfNeeded();
  assert.equal(await page.locator('[data-testid="app-frame"][data-kept]').count(), 1);
  assert.equal(await time.textContent(), shown);
  await screenshot(page, 'apps-long-chat');
}

test("the Tools page renders a tool's app under its result, and the app's calls ask there", async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await waitTools(page, ['vanilla__get-time']);
  // The page listed the servers when it opened, maybe before the ones this file added had started.
  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.ToolsPage?.Tools === 'function');
  await page.getByLabel('Server', { exact: true }).selectOption('vanilla')
    .catch(async (e) => { throw new Error(`${e.message}\n${await diag(page)}`); });
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: /get-time|Get Time/ }).first().click();
  await page.getByRole('button', { name: 'Run' }).click();
  const view = page.frameLocator('[data-testid="app-frame"]').frameLocator('iframe');
  await view.locator('#server-time').filter({ hasText: /^\d{4}-\d\d-\d\dT/ }).waitFor({ timeout: 30_000 });
  const first = await view.locator('#server-time').textContent();
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  // No chat here: the approval shows under the app.
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  await view.locator('#server-time').filter({ hasNotText: first }).waitFor();
  await screenshot(page, 'apps-tools-page');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hostile app cannot reach the window, navigate, fetch outside its CSP, open files or call a tool hidden from apps', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await waitTools(page, ['hostile__show']);
  const url = page.url();
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(
    { toolCalls: [{ id: 'call_h', name: 'hostile__show', arguments: '{}' }] },
    { text: 'Shown.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Show the hostile app');
  await box.press('Enter');
  await page.getByText('Shown.').waitFor();
  const card = page.getByTestId('tool-card').last();
  const view = app(card);
  await view.locator('li[data-attempt="done"]').waitFor({ timeout: 30_000 });
  const said = async (k) => (await view.locator(`li[data-attempt="${k}"]`).textContent()).replace(/^[^:]+: /, '');

  // The bindings and the window's DOM are in another origin: SecurityError.
  assert.equal(await said('parent.go'), 'blocked: SecurityError');
  assert.equal(await said('top.go'), 'blocked: SecurityError');
  assert.equal(await said('top.runtime'), 'blocked: SecurityError');
  assert.equal(await said('parent.document'), 'blocked: SecurityError');
  // Top navigation: refused by the sandbox (no allow-top-navigation); the window stays.
  assert.match(await said('top.location'), /^blocked: SecurityError$|^no exception$/);
  assert.equal(page.url(), url.replace(/#.*$/, '') + '#/chat');
  // A loopback fetch outside the CSP: refused, reported as a connect-src violation, never reached.
  assert.equal(await said('fetch'), 'blocked: TypeError');
  assert.match(await said('csp'), /connect-src http:\/\/127\.0\.0\.1:\d+\/ping/);
  // file: neither opens a window (no allow-popups) nor moves the frame.
  assert.equal(await said('file'), 'window.open refused; still at about:srcdoc');
  // A tool whose visibility leaves out "app" is refused by the host; an app-only one runs.
  assert.match(await said('secret'), /^refused: .*not callable from an app/);
  assert.equal(await said('app_only'), 'ok: app-only ok');
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'apps-hostile');

  // The host told the app the tool's input, then its result.
  await view.locator('#heard').filter({ hasText: /ui\/notifications\/tool-input .*ui\/notifications\/tool-result/ }).waitFor();
  // Full screen when the app asks (ui/request-display-mode), and back.
  await view.getByRole('button', { name: 'Full screen' }).click();
  await view.locator('li[data-attempt="display"]').filter({ hasText: 'fullscreen' }).waitFor();
  await page.locator('[data-testid="app-host"][data-mode="fullscreen"]').waitFor();
  await screenshot(page, 'apps-fullscreen');
  await page.getByRole('button', { name: 'Exit full screen' }).click();
  await page.locator('[data-testid="app-host"][data-mode="inline"]').waitFor();

  // Leaving the chat tears the app down, and it is told first (ui/resource-teardown): it notes so on its server.
  await page.getByRole('button', { name: 'New chat' }).click();
  const hits = await untilInPage(page, async () => {
    const r = JSON.parse((await window.go.gui.ToolsPage.CallTool('hostile__hits', '{}')).content[0].text);
    return r.teardowns >= 1 && r;
  }, null, { what: 'the app noting its teardown' });
  // The server saw no /ping and no call of secret.
  assert.equal(hits.pings, 0);
  assert.equal(hits.secret, 0);

  // No model request ever offered an app-only tool.
  const bodies = await modelRequests();
  assert.ok(bodies.length >= 2);
  for (const b of bodies) {
    const names = (b.tools ?? []).map((t) => t.function?.name);
    assert.ok(!names.includes('hostile__app_only'), `app-only tool offered: ${names}`);
    assert.doesNotMatch(JSON.stringify(b), /hostile app-only helper tool/);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
