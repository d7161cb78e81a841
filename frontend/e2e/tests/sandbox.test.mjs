// Sandboxed servers in the window: the import wizard's offer to sandbox the
// imported local servers, the "sandboxed" badge on the row, and the sandbox
// settings under Details (a bad folder named by its JSON path, the home
// under another spelling refused, a link to the home refused at start, then
// saved, then turned off), with the real server-filesystem under bubblewrap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { launch, openApp, screenshot, tempDir, serverAction } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('an imported server runs sandboxed, and its sandbox is edited under Details', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  const fsBin = path.resolve(import.meta.dirname, '../../../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-filesystem');
  const root = tempDir('e2e-sandbox-');
  writeFileSync(path.join(root, 'hello.txt'), 'hello');
  const data = tempDir('e2e-sandbox-data-');

  // The wizard offers the sandbox; ticked, the imported server starts in it.
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  await wizard.getByLabel('Config JSON').fill(JSON.stringify({ mcpServers: { boxed: { command: fsBin, args: [root] } } }));
  await wizard.getByRole('table', { name: 'Import preview' }).locator('tr[data-outcome="added"]').waitFor();
  const offer = wizard.getByLabel(/Run the imported local servers in a sandbox/);
  assert.equal(await offer.isChecked(), false, 'the sandbox is offered, not imposed');
  await offer.check();
  await wizard.getByRole('button', { name: 'Import 1 server' }).click();
  await wizard.getByRole('status').getByText(/^Imported 1 server:/).waitFor();
  await wizard.getByRole('button', { name: 'Close', exact: true }).click();
  const boxed = row(page, 'boxed');
  await boxed.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  const badge = boxed.getByText('sandboxed', { exact: true });
  await badge.waitFor();
  assert.match(await boxed.innerText(), /\d+ tools/);
  await boxed.scrollIntoViewIfNeeded();
  await screenshot(page, 'sandbox-badge');

  // Details: the sandbox form shows the entry; a relative folder is refused
  // with its JSON path, a full one is saved and the server restarts in it.
  await serverAction(boxed, 'Details');
  const form = boxed.getByRole('form', { name: 'Sandbox of boxed' });
  const toggle = form.getByLabel('Run in a sandbox');
  assert.equal(await toggle.isChecked(), true);
  assert.equal(await form.getByLabel(/^Network/).isChecked(), false);
  const write = form.getByLabel('Folders it may read and write');
  await write.fill('relative/folder');
  await form.getByRole('button', { name: 'Save sandbox' }).click();
  await form.getByRole('alert').getByText(/boxed\.sandbox\.allowWrite\[0\]: "relative\/folder" is not an absolute path/).waitFor();
  await write.fill(data);
  await form.getByLabel('Its roots (workspace folders)').selectOption('read');
  await form.getByRole('button', { name: 'Save sandbox' }).click();
  await form.getByRole('status').getByText('Saved; the server restarts in its sandbox.').waitFor();
  await boxed.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await toggle.focus();
  await screenshot(page, 'sandbox-details');

  // The home under another spelling is refused at save, with its JSON path.
  await write.fill('~/.');
  await form.getByRole('button', { name: 'Save sandbox' }).click();
  await form.getByRole('alert').getByText(/boxed\.sandbox\.allowWrite\[0\]: "~\/\." would open everything the sandbox hides/).waitFor();

  // A folder it may write, inside another one it may write, that became a
  // link to the home (what the server itself could have done): the next
  // start is refused, and the row says which link and what to do.
  const inner = path.join(data, 'inner');
  symlinkSync(homedir(), inner);
  await write.fill(`${data}\n${inner}`);
  await form.getByRole('button', { name: 'Save sandbox' }).click();
  await form.getByRole('status').getByText('Saved; the server restarts in its sandbox.').waitFor();
  await boxed.locator('[data-state="error"]').waitFor({ timeout: 60_000 });
  const refusal = boxed.getByText(/goes through the link .*inner.* a folder the server can write.*remove the link/).first();
  await refusal.waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await refusal.scrollIntoViewIfNeeded();
    const wide = await page.evaluate(() => [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((el) => `${el.tagName}.${el.className}`).slice(0, 5));
    assert.deepEqual(wide, [], `nothing sticks out of the window at ${width} px`);
    await screenshot(page, `sandbox-refused-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  await write.fill(data);
  await form.getByRole('button', { name: 'Save sandbox' }).click();
  await boxed.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  // Off: the badge goes, and the form's fields are disabled.
  await toggle.uncheck();
  assert.equal(await write.isDisabled(), true);
  await form.getByRole('button', { name: 'Save sandbox' }).click();
  await form.getByRole('status').getByText('Saved; the server restarts without a sandbox.').waitFor();
  await badge.waitFor({ state: 'detached' });
  await boxed.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  await serverAction(boxed, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove boxed?' }).getByRole('button', { name: 'Remove' }).click();
  await boxed.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
