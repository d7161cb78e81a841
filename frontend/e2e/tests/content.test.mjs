// What servers show besides text: icons (the testserver in mode contentserver lists
// data: icons on itself and its tools, plus file: and http: ones that must
// not be used), resource links as chips that open the resource in a viewer
// (the real server-everything's get-resource-links, and contentserver's
// report from a chat tool card), and structured output as a tree, checked
// against the tool's outputSchema: a mismatch is a visible error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, resetModel, screenshot, scriptModel as script, sharedApp, testServer, untilInPage } from '../lib.mjs';

const cli = (...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8' });

let browser;
let tmp;
before(async () => {
  browser = await launch();
  tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-content-e2e-'));
  const bin = path.join(tmp, 'contentserver');
  // The testserver serves the mode it is named after (contentserver).
  testServer(bin);
  cli('servers', 'add', 'content', '--', bin);
});
after(async () => {
  try { cli('servers', 'remove', 'content'); } catch { /* already gone */ }
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

/** pickTool opens a tool of a server on the Tools page. */
async function pickTool(page, server, tool) {
  await untilInPage(page, async (name) => {
    const list = await window.go.gui.ToolsPage.Tools();
    return list.tools.some((t) => t.name === name);
  }, `${server}__${tool}`, { timeout: 90_000, what: `the tool ${server}__${tool}` });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Server', { exact: true }).selectOption(server);
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: tool, exact: true }).click();
}

test('icons show beside the names of servers and tools; only data: and https: sources', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  const content = row(page, 'content');
  await content.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  const icon = content.locator('.server-head [data-testid="server-icon"]');
  await icon.waitFor();
  assert.match(await icon.getAttribute('src'), /^data:image\/svg\+xml;base64,/, 'the data: icon, not the http: one listed first');
  assert.ok(await icon.evaluate((img) => img.complete && img.naturalWidth > 0), 'the icon rendered');
  await content.scrollIntoViewIfNeeded();
  await screenshot(page, 'icons-servers');

  await page.goto(`${env('E2E_URL')}/#/tools`);
  await pickTool(page, 'content', 'sum');
  const list = page.getByRole('list', { name: 'Tools of the server' });
  assert.equal(await list.getByRole('button', { name: 'sum', exact: true }).locator('img[data-testid="server-icon"]').count(), 1);
  assert.equal(await list.getByRole('button', { name: 'broken_sum' }).locator('img').count(), 0, 'a file: icon is never used');
  await screenshot(page, 'icons-tools');
  assert.deepEqual(errors, []);
  await page.close();
});

test('structured output is a tree; a mismatch with the outputSchema is an error', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await pickTool(page, 'content', 'sum');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const tree = page.getByRole('group', { name: 'Structured output' });
  await tree.waitFor();
  assert.match(await tree.innerText(), /sum: 6/);
  // Folding works from the keyboard: the terms array closes and opens.
  const terms = tree.locator('summary', { hasText: 'terms' });
  await terms.focus();
  await page.keyboard.press('Enter');
  assert.equal(await terms.evaluate((s) => s.parentElement.open), false);
  await page.keyboard.press('Enter');
  assert.equal(await terms.evaluate((s) => s.parentElement.open), true);
  assert.equal(await page.getByTestId('schema-error').count(), 0);
  await screenshot(page, 'structured-output');

  await pickTool(page, 'content', 'broken_sum');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const mismatch = page.getByTestId('schema-error');
  await mismatch.waitFor();
  assert.match(await mismatch.innerText(), /outputSchema/);
  await page.getByText('Tool error').waitFor();
  assert.match(await page.getByRole('group', { name: 'Structured output' }).innerText(), /sum: "six"/);
  await screenshot(page, 'structured-mismatch');
  assert.deepEqual(errors, []);
  await page.close();
});

test('resource links are chips that open the resource in a viewer (Tools page and chat card)', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await pickTool(page, 'everything', 'get-resource-links');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const chips = page.getByRole('list', { name: 'Resource links' });
  await chips.waitFor();
  // A text resource, and a blob of text/plain (read as text).
  await chips.getByRole('button', { name: /Text Resource 2/ }).click();
  let viewer = page.getByRole('dialog', { name: 'Resource Text Resource 2' });
  await viewer.getByLabel('Resource text').getByText(/Resource 2: This is a plaintext resource/).waitFor();
  await screenshot(page, 'resource-link-viewer-tools');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await chips.getByRole('button', { name: /Blob Resource 1/ }).click();
  viewer = page.getByRole('dialog', { name: 'Resource Blob Resource 1' });
  await viewer.getByLabel('Resource text').getByText(/Resource 1: This is a base64 blob/).waitFor();
  await viewer.getByRole('button', { name: 'Close the resource' }).click();
  await viewer.waitFor({ state: 'detached' });

  await page.goto(`${env('E2E_URL')}/#/chat`);
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(
    { toolCalls: [{ id: 'call_rep', name: 'content__report', arguments: '{}' }] },
    { text: 'The report is linked above.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Write the report');
  await box.press('Enter');
  const card = page.getByTestId('tool-card').last();
  // report is not read-only: allow it once if asked.
  const allow = page.getByRole('button', { name: /Allow once/i });
  await Promise.race([card.getByText('done').waitFor({ timeout: 60_000 }), allow.click({ timeout: 60_000 })]).catch(() => {});
  await card.getByText('done').waitFor({ timeout: 60_000 });
  await card.getByRole('button').first().click();
  await card.getByRole('button', { name: /Q3 report/ }).click();
  const cardViewer = card.getByRole('dialog', { name: 'Resource Q3 report' });
  await cardViewer.getByText('Revenue grew 12%.').waitFor();
  await screenshot(page, 'resource-link-viewer-chat');
  assert.deepEqual(errors, []);
  await page.close();
});
