// A server that speaks MCP 2026-07-28 only (the testserver in mode modernserver:
// no initialize, input asked for with input_required results) in the
// window: its row says which revision it speaks, and a tool whose call comes
// back input_required shows the server's form in the chat; once the user
// sends it the call is retried with the answer and the model gets the
// result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, modelRequests, openApp, resetModel, screenshot, scriptModel as script, testServer, untilInPage } from '../lib.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-modern-'));
let browser;
before(async () => {
  browser = await launch();
  const bin = path.join(tmp, 'modernserver');
  // The testserver serves the mode it is named after (modernserver).
  testServer(bin);
  execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), 'servers', 'add', 'bistro', '--', bin], { encoding: 'utf8' });
});
after(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('a 2026-07-28 server: its revision on the Servers page, its input_required form in the chat', async () => {
  await resetModel();
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  const row = page.getByRole('listitem', { name: 'bistro' });
  await row.getByText('MCP 2026-07-28').waitFor({ timeout: 60_000 });
  await row.getByRole('button', { name: 'Test connection' }).click();
  await row.getByText(/over stdio, protocol 2026-07-28/).waitFor({ timeout: 30_000 });
  // The connection step is server/discover, not the initialize handshake.
  assert.match(await row.getByRole('row', { name: /^server\/discover/ }).innerText(), /ok/);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await screenshot(page, `modern-server-row-${width}`);
  }

  await page.goto(page.url().replace(/#.*$/, '#/chat'));
  await untilInPage(page, async () => (await window.go.gui.ToolsPage.Tools()).tools.some((t) => t.name === 'bistro__book_table'), null, { timeout: 60_000, what: 'the tool bistro__book_table' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(
    { toolCalls: [{ id: 'call_b1', name: 'bistro__book_table', arguments: '{}' }] },
    { text: 'Your table is booked.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Book us a table');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();

  const form = page.getByTestId('elicit-form');
  await form.waitFor();
  assert.match(await form.innerText(), /Who is the table for\?/);
  assert.equal(await form.getByLabel(/Party size/).inputValue(), '2', 'the schema default is filled in');
  await form.getByLabel(/^Name/).fill('Ada');
  await form.getByLabel(/Party size/).fill('4');
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await form.getByRole('button', { name: 'Send' }).waitFor();
    await screenshot(page, `modern-input-required-form-${width}`);
  }
  await form.getByRole('button', { name: 'Send' }).click();

  await page.getByText('Your table is booked.').waitFor();
  const reqs = await modelRequests();
  const tool = reqs[reqs.length - 1].messages.filter((m) => m.role === 'tool').pop();
  assert.match(typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content), /Booked a table for 4 under Ada\./);
  await screenshot(page, 'modern-input-required-done');
  assert.deepEqual(errors, []);
  await page.close();
});
