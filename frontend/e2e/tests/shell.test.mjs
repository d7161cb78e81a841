// The app shell: every page is reachable from the navigation and keyboard,
// shows its heading, and the bound Go methods answer in the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, screenshot, sharedApp } from '../lib.mjs';

const PAGES = ['Chat', 'Servers', 'Tools', 'Knowledge', 'Workspace', 'Settings'];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('every page opens from the navigation and shows its heading', async () => {
  const { page, errors } = await sharedApp(browser);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of PAGES) {
    await nav.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
    assert.equal(
      await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current'), 'page',
      `${name} link should be marked current`,
    );
    await screenshot(page, `shell-${name.toLowerCase()}`);
  }
  assert.deepEqual(errors, [], 'no uncaught page errors');
  await page.close();
});

test('the version shown comes from the Go backend', async () => {
  const { page } = await sharedApp(browser);
  const info = await page.evaluate(() => window.go.gui.Window.Info());
  assert.equal(info.name, 'Switchboard');
  assert.ok(info.dataDir.endsWith('/data'), `isolated data dir, got ${info.dataDir}`);
  await page.getByText(info.version, { exact: false }).first().waitFor();
  await page.close();
});

test('keyboard: Ctrl+number switches pages', async () => {
  const { page } = await sharedApp(browser);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.keyboard.press('Control+4');
  await page.getByRole('heading', { level: 1, name: 'Knowledge', exact: true }).waitFor();
  await page.keyboard.press('Control+2');
  await page.getByRole('heading', { level: 1, name: 'Servers', exact: true }).waitFor();
  await page.close();
});

test('dark theme follows the OS', async () => {
  // Two pages side by side: not the shared one.
  const light = await openApp(browser, { colorScheme: 'light' });
  const dark = await openApp(browser, { colorScheme: 'dark' });
  const bg = (p) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [lb, db] = [await bg(light.page), await bg(dark.page)];
  assert.notEqual(lb, db, 'light and dark backgrounds differ');
  const lum = (rgb) => rgb.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0);
  assert.ok(lum(db) < lum(lb), `dark background ${db} is darker than light ${lb}`);
  await screenshot(dark.page, 'shell-dark');
  await light.page.close();
  await dark.page.close();
});
