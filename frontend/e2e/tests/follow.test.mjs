// The window follows config.json: a server that the CLI adds while the app
// is open appears on the Servers page, and disappears when the CLI removes
// it, without a reload (the window reloads the file and tells the page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { launch, openApp, screenshot, env } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const cli = (...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8' });
const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('a server the CLI adds and removes shows up and goes away', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
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
