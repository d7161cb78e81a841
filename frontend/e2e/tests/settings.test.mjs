// Settings: a key set in the UI goes to the OS keyring (a private
// gnome-keyring here) and comes back masked after a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, screenshot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a provider key set in Settings is masked after reload', async () => {
  const secret = 'sk-e2e-provider-key-0123456789';
  const { page, errors } = await openApp(browser, { hash: '#/settings' });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  assert.equal(await page.getByRole('alert').count(), 0, 'the keyring is reachable');
  const form = page.getByRole('form', { name: 'Add a secret' });
  await form.getByLabel('Name').fill('OPENAI_API_KEY');
  await form.getByLabel('Value').fill(secret);
  await form.getByRole('button', { name: 'Add secret' }).click();
  const row = page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: 'OPENAI_API_KEY' });
  await row.getByText('••••6789').waitFor();

  await page.reload();
  await page.waitForFunction(() => typeof window.go?.app?.SettingsPage?.Secrets === 'function');
  await row.getByText('••••6789').waitFor();
  assert.ok(!(await page.content()).includes(secret), 'the plaintext key is nowhere in the page');
  await screenshot(page, 'settings-secret-masked');

  // Replace, then delete (asks first).
  await row.getByRole('button', { name: 'Replace' }).click();
  await row.getByLabel('New value for OPENAI_API_KEY').fill('sk-e2e-replaced-key-abcdwxyz');
  await row.getByRole('button', { name: 'Save' }).click();
  await row.getByText('••••wxyz').waitFor();
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('alertdialog', { name: 'Delete OPENAI_API_KEY?' }).getByRole('button', { name: 'Delete' }).click();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
