// Settings: a key set in the UI goes to the OS keyring (a private
// gnome-keyring here) and comes back masked after a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { env, launch, screenshot, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a provider key set in Settings is masked after reload', async () => {
  const secret = 'sk-e2e-provider-key-0123456789';
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  assert.equal(await page.getByRole('alert').count(), 0, 'the keyring is reachable');
  const form = page.getByRole('form', { name: 'Add a secret' });
  await form.getByLabel('Name').fill('OPENAI_API_KEY');
  await form.getByLabel('Value').fill(secret);
  await form.getByRole('button', { name: 'Add secret' }).click();
  const row = page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: 'OPENAI_API_KEY' });
  await row.getByText('••••6789').waitFor();

  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.SettingsPage?.Secrets === 'function');
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

// Settings → Chat → Sampling: the choices are saved to config.json and
// read back after a reload.
test('sampling settings are saved and read back', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const form = page.getByRole('form', { name: 'Sampling' });
  assert.ok(await form.getByLabel('Ask every time').isChecked(), 'ask is the default');
  assert.ok(await form.getByLabel('Requests per chat without asking').isDisabled(), 'the count is for "allow" only');
  assert.equal(await form.getByLabel('Requests per server per minute').inputValue(), '10');
  await form.getByLabel('Allow some per chat').check();
  await form.getByLabel('Requests per chat without asking').fill('3');
  await form.getByLabel('Requests per server per minute').fill('7');
  await form.getByLabel('Allow sampling outside a tool call').check();
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').getByText('Saved').waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    // The navigation slides into its drawer below 1000 px: shoot once it is still.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(env('E2E_ARTIFACTS'), `settings-sampling-${width}.png`) });
  }

  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.SettingsPage?.ChatSettings === 'function');
  await form.getByLabel('Allow some per chat').waitFor();
  await page.waitForFunction(() => document.querySelector('[aria-label="Requests per chat without asking"]')?.value === '3');
  assert.ok(await form.getByLabel('Allow some per chat').isChecked());
  assert.equal(await form.getByLabel('Requests per server per minute').inputValue(), '7');
  assert.ok(await form.getByLabel('Allow sampling outside a tool call').isChecked());
  const saved = await page.evaluate(() => window.go.gui.SettingsPage.ChatSettings());
  assert.deepEqual(saved.sampling, { mode: 'allow', perChat: 3, perMinute: 7, outsideCalls: true });

  // Back to the defaults for the other tests.
  await form.getByLabel('Ask every time').check();
  await form.getByLabel('Requests per server per minute').fill('10');
  await form.getByLabel('Allow sampling outside a tool call').uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').getByText('Saved').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

// Settings you can find: an index of sections you can use with the keyboard,
// one Save for every settings form (each says Saved beside its fields),
// Discard, and links to where related settings live.
test('the settings index, one Save for every form, Discard, and links elsewhere', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const index = page.getByRole('navigation', { name: 'Settings sections' });
  for (const name of ['Models', 'Chat', 'Servers', 'Tasks', 'Secrets']) {
    await index.getByRole('button', { name, exact: true }).waitFor();
  }
  // No Save per form: one Save, shown once something changed.
  assert.equal(await page.getByRole('button', { name: /^Save (sampling|tool search|long chats|download limit|registry|task settings)$/ }).count(), 0, 'no per-form Save buttons');
  assert.equal(await page.getByRole('region', { name: 'Unsaved changes' }).count(), 0, 'no Save bar before an edit');

  // The index with the keyboard: focus Secrets, Enter, and its heading has focus and is on screen.
  await index.getByRole('button', { name: 'Secrets', exact: true }).focus();
  await page.keyboard.press('Enter');
  const secrets = page.getByRole('heading', { level: 2, name: 'Secrets' });
  await page.waitForFunction(() => document.activeElement?.id === 'settings-secrets');
  const box = await secrets.boundingBox();
  assert.ok(box && box.y >= 0 && box.y < page.viewportSize().height, 'the Secrets heading is on screen');

  // Two forms edited, one Save saves both.
  const tasks = page.getByRole('form', { name: 'Tasks' });
  const downloads = page.getByRole('form', { name: 'Package downloads' });
  // The forms hold what is saved (other tests change these settings too): wait for them to load.
  await page.waitForFunction(() => !!document.querySelector('form[aria-label="Tasks"] input[type="number"]')?.value);
  await page.waitForFunction(() => !!document.querySelector('form[aria-label="Package downloads"] input')?.value);
  const was = await page.evaluate(async () => ({
    tasks: (await window.go.gui.SettingsPage.TaskSettings()).limitMinutes,
    downloads: await window.go.gui.SettingsPage.DownloadTimeoutSeconds(),
  }));
  await tasks.getByLabel(/Task time limit/).fill('40');
  await downloads.getByLabel('Download time limit').fill('7');
  const bar = page.getByRole('region', { name: 'Unsaved changes' });
  await bar.getByText(/Tasks/).waitFor();
  assert.match(await bar.innerText(), /Package downloads/);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await screenshot(page, `settings-savebar-${width}`);
  }
  await bar.getByRole('button', { name: 'Save changes' }).click();
  await tasks.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  await downloads.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  await bar.waitFor({ state: 'detached' });
  let saved = await page.evaluate(() => window.go.gui.SettingsPage.TaskSettings());
  assert.equal(saved.limitMinutes, 40);
  assert.equal(await page.evaluate(() => window.go.gui.SettingsPage.DownloadTimeoutSeconds()), 420);

  // Discard puts back what is saved.
  await tasks.getByLabel(/Task time limit/).fill('55');
  await bar.getByRole('button', { name: 'Discard' }).click();
  await bar.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('form[aria-label="Tasks"] input[type="number"]')?.value === '40');

  // Back to what they were for the other tests.
  await tasks.getByLabel(/Task time limit/).fill(String(was.tasks));
  await downloads.getByLabel('Download time limit').fill(String(was.downloads / 60));
  await bar.getByRole('button', { name: 'Save changes' }).click();
  await bar.waitFor({ state: 'detached' });
  saved = await page.evaluate(() => window.go.gui.SettingsPage.TaskSettings());
  assert.equal(saved.limitMinutes, was.tasks);

  // Approval rules live on the Tools page: the intro links there.
  await page.locator('.settings-page > p').first().getByRole('link', { name: 'Tools', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
