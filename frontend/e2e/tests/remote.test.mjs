// A remote server added by URL through the import wizard connects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { env, launch, openApp, screenshot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a server added by URL connects over Streamable HTTP', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  await wizard.getByLabel('Config JSON').fill(JSON.stringify({ mcpServers: { hosted: { url: env('E2E_REMOTE_URL') } } }, null, 2));
  await wizard.getByRole('table', { name: 'Import preview' }).locator('tr[data-outcome="added"]').waitFor();
  await wizard.getByRole('button', { name: 'Import 1 server' }).click();
  const row = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'hosted', exact: true });
  await row.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  assert.match(await row.innerText(), /http/);
  assert.match(await row.innerText(), /\d+ tools/);
  await screenshot(page, 'remote-ready');
  assert.deepEqual(errors, []);
  await page.close();
});
