// First starts: an "npx -y" server imported with an empty npm cache and a
// "startupTimeout" shorter than its download shows Installing (with npm's
// progress lines and the time so far) and then Ready; the download limit
// is a setting. The package comes from a local npm registry
// (the testserver's mode npm-registry) that holds each download back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { env, launch, screenshot, sharedApp, tempDir, testServer } from '../lib.mjs';

const tmp = tempDir('switchboard-firststart-');
let browser;
let registry;
let registryURL;
let pkg;

before(async () => {
  browser = await launch();
  const bin = path.join(tmp, 'npmregistry');
  testServer(bin);
  registry = spawn(bin, ['-mode', 'npm-registry', '-delay', '5s'], { stdio: ['pipe', 'pipe', 'inherit'] });
  [registryURL, pkg] = await new Promise((resolve, reject) => {
    let out = '';
    registry.stdout.on('data', (d) => {
      out += d;
      const u = /NPM_REGISTRY_URL=(\S+)/.exec(out);
      const p = /NPM_PACKAGE=(\S+)/.exec(out);
      if (u && p) resolve([u[1], p[1]]);
    });
    registry.on('exit', () => reject(new Error('npmregistry exited before it listened')));
  });
});
after(async () => {
  registry?.stdin.end(); // it stops when its stdin closes
  await browser?.close();
});

const cli = (...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8' });
const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('an npx server on an empty cache shows installing, then ready', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();

  const file = path.join(tmp, 'claude_desktop_config.json');
  writeFileSync(file, JSON.stringify({
    mcpServers: {
      'tiny-npx': {
        command: 'npx', args: ['-y', pkg], startupTimeout: 3000,
        env: { npm_config_registry: registryURL, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' },
      },
    },
  }));
  cli('servers', 'import', file);

  const r = row(page, 'tiny-npx');
  await r.locator('[data-state="installing"]').waitFor({ timeout: 30_000 });
  const progress = r.getByRole('status', { name: 'Downloading tiny-npx' });
  await progress.waitFor();
  // npm's own lines (its registry requests), and the time so far ticking.
  await progress.locator('.install-line').filter({ hasText: /npm http|fetching/ }).waitFor();
  await page.waitForFunction(() => /0:0[1-9]/.test(document.querySelector('.install-elapsed')?.textContent ?? ''), null, { timeout: 10_000 });
  await r.scrollIntoViewIfNeeded();
  await screenshot(page, 'firststart-installing');

  // The download (5 s) is longer than "startupTimeout" (3 s): still ready.
  await r.locator('[data-state="ready"]').waitFor({ timeout: 120_000 });
  assert.match(await r.innerText(), /\b1 tool\b/);
  assert.equal(await progress.count(), 0);
  await screenshot(page, 'firststart-ready');

  cli('servers', 'remove', 'tiny-npx');
  await r.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the download time limit is a setting', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  const form = page.getByRole('form', { name: 'Package downloads' });
  const limit = form.getByLabel('Download time limit');
  await page.waitForFunction(() => document.querySelector('form[aria-label="Package downloads"] input')?.value === '5');
  await limit.fill('12');
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  const cfg = JSON.parse(execFileSync('cat', [path.join(env('E2E_DATA_DIR'), 'config.json')], { encoding: 'utf8' }));
  assert.equal(cfg.settings.servers.downloadTimeoutSeconds, 720);
  await limit.fill('0');
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('alert').filter({ hasText: /choose between 10 seconds/ }).waitFor();
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-download-limit');
  assert.deepEqual(errors, []);
  await page.close();
});
