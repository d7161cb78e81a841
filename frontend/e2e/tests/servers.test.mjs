// Servers and Tools pages against real npm servers: badges turn ready (or
// error for a broken command), a tool runs in the playground, and disabling a
// server changes its badge.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, openApp, screenshot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('servers show their live status', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  for (const name of ['everything', 'memory']) {
    await row(page, name).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  }
  const broken = row(page, 'broken');
  await broken.locator('[data-state="error"]').waitFor({ timeout: 30_000 });
  assert.match(await broken.locator('.server-error').innerText(), /switchboard-e2e-no-such-command" not found/);
  assert.match(await row(page, 'everything').innerText(), /\d+ tools/);
  // The built-in content store is listed too, without controls that make no sense for it.
  const builtin = row(page, 'content-store');
  await builtin.locator('[data-state="ready"]').waitFor();
  assert.match(await builtin.innerText(), /built-in\s+7 tools/);
  assert.equal(await builtin.getByRole('button', { name: 'Restart' }).count(), 0);
  // The live log shows what the server wrote to stderr.
  await row(page, 'everything').getByText(/^Log \(/).click();
  const log = page.getByLabel('Log of everything');
  await log.waitFor();
  assert.notEqual((await log.innerText()).trim(), '', 'stderr lines are shown');
  await screenshot(page, 'servers-ready');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the playground runs everything__echo from a generated form', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/tools' });
  await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
  await page.getByLabel('Server', { exact: true }).selectOption('everything');
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: 'echo', exact: true }).click();
  const message = page.getByLabel(/message/i).first();
  await message.fill('hello from playwright');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.waitFor();
  assert.match(await result.innerText(), /Echo: hello from playwright/);
  assert.match(await result.innerText(), /\d+(\.\d)? ms/);
  await screenshot(page, 'tools-echo');

  // Raw JSON mode runs the same tool with typed-in arguments.
  await page.getByLabel('Raw JSON').check();
  await page.getByLabel('Arguments (JSON)').fill('{"message": "raw mode"}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await result.getByText('Echo: raw mode').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('disabling a server changes its badge, enabling brings it back', async () => {
  const { page } = await openApp(browser, { hash: '#/servers' });
  const memory = row(page, 'memory');
  await memory.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await memory.getByRole('button', { name: 'Disable' }).click();
  await memory.locator('[data-state="disabled"]').waitFor().catch(async (e) => {
    await screenshot(page, 'servers-disable-failed');
    throw e;
  });
  assert.equal(await memory.locator('.badge').innerText(), 'Disabled');
  await screenshot(page, 'servers-disabled');
  await memory.getByRole('button', { name: 'Enable' }).click();
  await memory.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  // Remove asks first; Cancel keeps the server.
  await memory.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove memory?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await row(page, 'memory').count(), 1);
  await page.close();
});

test('the import wizard previews, then imports, and the new server starts', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  const fsBin = path.resolve(import.meta.dirname, '../../../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-filesystem');
  const root = mkdtempSync(path.join(tmpdir(), 'e2e-fs-'));
  const json = `{
  // pasted from Claude Desktop
  "mcpServers": {
    "files": {"command": ${JSON.stringify(fsBin)}, "args": [${JSON.stringify(root)}], "env": {"GITHUB_TOKEN": "ghp_wizardtoken00001234"}},
    "memory": {"command": "uvx", "args": ["some-other-memory"]},
    "bad": {"command": "npx", "args": "-y oops"},
  }
}`;
  await wizard.getByLabel('Config JSON').fill(json);
  const preview = wizard.getByRole('table', { name: 'Import preview' });
  await preview.waitFor();
  const outcome = async (name) => (await preview.locator('tr', { hasText: name }).getAttribute('data-outcome'));
  await preview.locator('tr[data-outcome="invalid"]').waitFor();
  assert.equal(await outcome('files'), 'added');
  assert.equal(await outcome('memory'), 'conflicting');
  assert.equal(await outcome('bad'), 'invalid');
  const problems = wizard.getByRole('list', { name: 'Problems' });
  assert.match(await problems.innerText(), /line 6:\d+ mcpServers\.bad\.args must be an array of strings/);
  // The token is shown masked and will move to the keyring.
  await preview.getByText('env.GITHUB_TOKEN ••••1234 → keyring').waitFor();
  // The default for a name in use keeps the existing server.
  assert.equal(await wizard.getByLabel('Action for memory').inputValue(), 'keep');
  await screenshot(page, 'import-preview');

  await wizard.getByRole('button', { name: 'Import 1 server' }).click();
  await wizard.getByRole('status').getByText(/^Imported 1 server:/).waitFor();
  await row(page, 'files').locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  assert.match(await row(page, 'memory').locator('.server-cmd').innerText(), /mcp-server-memory/, 'existing memory kept');
  // The imported token is in the keyring, listed masked in Settings.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const secret = page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: 'files_GITHUB_TOKEN' });
  await secret.getByText('••••1234').waitFor();
  assert.match(await secret.innerText(), /files/);
  await screenshot(page, 'import-done');
  assert.deepEqual(errors, []);
  await page.close();
});
