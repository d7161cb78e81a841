// The MCP Registry's Browse tab against a local registry speaking the
// generic API v0.1 (the testserver's mode mcp-registry): the
// registry URL set in Settings, a search followed across pages, a server's
// details, Add with a secret variable (to the keyring, never config.json),
// Add refused for a server.json that reads another server's secret, and the
// cached listing with its age once the registry is down.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { env, launch, openApp, screenshot, tempDir, testServer, serverAction } from '../lib.mjs';

const tmp = tempDir('switchboard-registry-');
let browser;
let registry;
let registryURL;

before(async () => {
  browser = await launch();
  const bin = path.join(tmp, 'fakeregistry');
  testServer(bin);
  registry = spawn(bin, ['-mode', 'mcp-registry', '-fillers', '40', '-hostile'], { stdio: ['pipe', 'pipe', 'inherit'] });
  registryURL = await new Promise((resolve, reject) => {
    let out = '';
    registry.stdout.on('data', (d) => {
      out += d;
      const m = /REGISTRY_URL=(\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    registry.on('exit', () => reject(new Error('fakeregistry exited before it listened')));
  });
});
after(async () => {
  registry?.stdin.end();
  await browser?.close();
});

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('Browse: search across pages, details, Add; a stale listing says how old it is', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/settings' });
  const settings = page.getByRole('form', { name: 'MCP Registry' });
  await page.waitForFunction(() => /registry\.modelcontextprotocol\.io/.test(document.querySelector('form[aria-label="MCP Registry"] input')?.value ?? ''));
  await settings.getByLabel('Registry URL').fill(registryURL);
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await settings.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

  await page.goto(env('E2E_URL') + '/#/servers');
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await page.getByRole('button', { name: 'Browse registry' }).click();
  const browse = page.getByRole('tabpanel', { name: 'Browse the MCP Registry' });
  const list = browse.getByRole('list', { name: 'Registry servers' });
  await list.getByRole('listitem', { name: 'io.github.example/weather' }).waitFor();
  assert.equal(await list.getByRole('listitem').count(), 30); // one page
  await browse.getByRole('button', { name: 'More results' }).click();
  await list.getByRole('listitem', { name: 'io.github.example/filler-40' }).waitFor();
  assert.equal(await list.getByRole('listitem').count(), 45); // 4 examples, 40 fillers, the hostile one
  assert.equal(await browse.getByRole('button', { name: 'More results' }).count(), 0);

  await browse.getByLabel('Search the registry').fill('weather');
  await browse.getByRole('button', { name: 'Search' }).click();
  await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Registry servers"] > li').length === 1);
  const weather = list.getByRole('listitem', { name: 'io.github.example/weather' });
  await weather.getByRole('button', { name: 'Details' }).click();
  const form = weather.getByRole('form', { name: 'Add io.github.example/weather' });
  assert.match(await form.innerText(), /npm @example\/weather-mcp 1\.4\.2/);
  assert.match(await form.innerText(), /WEATHER_API_KEY/);
  assert.equal(await form.getByLabel('WEATHER_API_KEY').getAttribute('type'), 'password');
  await form.getByLabel('WEATHER_API_KEY').fill('wk-e2e-SECRET-9');
  await form.getByLabel('units').selectOption('imperial');
  // Before Add: the exact command line, as the entry will run it, and the names it sets.
  const preview = form.getByTestId('registry-preview');
  await preview.filter({ hasText: 'npx -y @example/weather-mcp@1.4.2 --units imperial' }).waitFor();
  assert.match(await preview.innerText(), /Will run npx -y @example\/weather-mcp@1\.4\.2 --units imperial as weather/);
  assert.match(await preview.innerText(), /Environment: WEATHER_API_KEY WEATHER_REGION/);
  assert.doesNotMatch(await form.innerText(), /wk-e2e-SECRET-9/);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, `registry-preview-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  await screenshot(page, 'registry-browse-details');
  await form.getByRole('button', { name: 'Add' }).click();
  await browse.getByRole('status').filter({ hasText: 'Added weather' }).waitFor();

  const r = row(page, 'weather');
  await r.waitFor({ timeout: 15_000 });
  assert.match(await r.innerText(), /npx -y @example\/weather-mcp@1\.4\.2 --units imperial/);
  const cfg = readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8');
  assert.doesNotMatch(cfg, /wk-e2e-SECRET-9/);
  assert.match(cfg, /"WEATHER_API_KEY": ?"\$\{secret:/);
  await r.scrollIntoViewIfNeeded();
  await screenshot(page, 'registry-added');

  // A server.json whose header reads ${secret:OTHER}: Add says which field and why, and adds nothing.
  await browse.getByLabel('Search the registry').fill('grab');
  await browse.getByRole('button', { name: 'Search' }).click();
  await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Registry servers"] > li').length === 1);
  const grab = list.getByRole('listitem', { name: 'io.github.evil/grab' });
  await grab.getByRole('button', { name: 'Details' }).click();
  const grabForm = grab.getByRole('form', { name: 'Add io.github.evil/grab' });
  // The refusal shows before Add, which stays off.
  await grabForm.getByRole('alert').filter({ hasText: 'server.json remotes[0].headers[0].value: ${secret:OTHER} would read a secret or environment variable this server was not given, so Switchboard did not add it' }).waitFor();
  assert.equal(await grabForm.getByRole('button', { name: 'Add' }).isDisabled(), true);
  assert.equal(await row(page, 'grab').count(), 0);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await grabForm.scrollIntoViewIfNeeded();
    await screenshot(page, `registry-refused-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 }); // openApp's
  await browse.getByLabel('Search the registry').fill('weather');
  await browse.getByRole('button', { name: 'Search' }).click();
  await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Registry servers"] > li').length === 1);

  // The registry goes away: the same search shows the cached listing and its age.
  registry.kill('SIGTERM');
  await new Promise((res) => registry.once('exit', res));
  await browse.getByRole('button', { name: 'Search' }).click();
  // In plain words: offline, the cached listing and its age; the network's words behind a disclosure.
  const offline = browse.getByRole('status', { name: 'Registry offline' });
  await offline.filter({ hasText: /^The MCP Registry at http:\/\/127\.0\.0\.1:\d+ is offline or cannot be reached: check your internet connection .* Showing the listing fetched \d+ (second|minute)s? ago\./ }).waitFor();
  assert.equal(await offline.locator('details').evaluate((d) => d.open), false);
  assert.doesNotMatch(await offline.locator('.error-sentence').innerText(), /dial tcp|connection refused/);
  await offline.getByText('Technical details').click();
  assert.match(await offline.locator('details pre').innerText(), /connection refused/);
  await list.getByRole('listitem', { name: 'io.github.example/weather' }).waitFor();
  await browse.scrollIntoViewIfNeeded();
  await screenshot(page, 'registry-stale');

  await serverAction(r, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove weather?' }).getByRole('button', { name: 'Remove' }).click();
  await r.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
