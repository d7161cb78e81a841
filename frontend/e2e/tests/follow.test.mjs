// The window follows config.json: a server that the CLI adds while the app
// is open appears on the Servers page, and disappears when the CLI removes
// it, without a reload (the window reloads the file and tells the page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { env, launch, screenshot, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const cli = (...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8' });
const cliIn = (input, ...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8', input });
const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('a server the CLI adds and removes shows up and goes away', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await row(page, 'content-store').waitFor();
  assert.equal(await row(page, 'from-terminal').count(), 0);

  cli('servers', 'add', 'from-terminal', '--', 'switchboard-e2e-not-installed', '--stdio');
  const added = row(page, 'from-terminal');
  await added.waitFor({ timeout: 15_000 });
  await added.locator('[data-state="error"]').waitFor({ timeout: 15_000 });
  assert.match(await added.innerText(), /switchboard-e2e-not-installed/);
  await added.scrollIntoViewIfNeeded();
  await screenshot(page, 'servers-follow-cli');

  cli('servers', 'remove', 'from-terminal');
  await added.waitFor({ state: 'detached', timeout: 15_000 });
  assert.match(cli('servers', 'list'), /content-store|everything/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a secret the CLI sets shows on the open Settings page', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const table = page.getByRole('table', { name: 'Secrets' });
  const secret = table.getByRole('row', { name: 'E2E_FROM_CLI' });
  assert.equal(await secret.count(), 0);

  cliIn('e2e-value-123456\n', 'secrets', 'set', 'E2E_FROM_CLI');
  await secret.waitFor({ timeout: 15_000 });
  assert.match(await secret.innerText(), /3456/); // masked, last four shown
  assert.doesNotMatch(await secret.innerText(), /e2e-value/);
  await secret.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-follow-cli');

  cli('secrets', 'delete', 'E2E_FROM_CLI');
  await secret.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
