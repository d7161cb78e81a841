// The MCP Registry's Browse tab against a local registry speaking the
// generic API v0.1 (the testserver's mode mcp-registry): the
// registry URL set in Settings, a search followed across pages, a server's
// details, Add with a secret variable (to the keyring, never config.json),
// Add refused for a server.json that reads another server's secret, and the
// cached listing with its age once the registry is down. With -examples it
// also serves the server.json spec's examples: an optional argument shown
// and taken, a required choice starting on "Choose…", a deprecated server
// marked, a deleted one not offered, a one-word description kept on screen
// at 720 px.
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
  registry = spawn(bin, ['-mode', 'mcp-registry', '-fillers', '40', '-hostile', '-examples'], { stdio: ['pipe', 'pipe', 'inherit'] });
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

// useRegistry points Settings at the fake registry and opens Browse registry.
async function useRegistry(page) {
  const settings = page.getByRole('form', { name: 'MCP Registry' });
  await page.waitForFunction(() => (document.querySelector('form[aria-label="MCP Registry"] input')?.value ?? '') !== '');
  const url = settings.getByLabel('Registry URL');
  if ((await url.inputValue()) !== registryURL) { // an earlier test of this file may have saved it already
    await url.fill(registryURL);
    await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
    await settings.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  }
  await page.goto(env('E2E_URL') + '/#/servers');
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await page.getByRole('button', { name: 'Browse registry' }).click();
  return page.getByRole('tabpanel', { name: 'Browse the MCP Registry' });
}

// searchFor lists the servers matching q, waiting for n of them.
async function searchFor(page, browse, q, n) {
  await browse.getByLabel('Search the registry').fill(q);
  await browse.getByRole('button', { name: 'Search' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('ul[aria-label="Registry servers"] > li').length === n, n);
  return browse.getByRole('list', { name: 'Registry servers' });
}

test("Browse: the spec's examples: optional fields, Choose… for a required choice, deprecated and deleted marks, a long description", async () => {
  const { page, errors } = await openApp(browser, { hash: '#/settings' });
  // Until one is set, Settings shows the official registry.
  await page.waitForFunction(() => /registry\.modelcontextprotocol\.io/.test(document.querySelector('form[aria-label="MCP Registry"] input')?.value ?? ''));
  const browse = await useRegistry(page);

  // The spec's Docker example: the optional --port is a field of its own, a
  // required choice without a default starts on Choose… and holds Add back.
  let list = await searchFor(page, browse, 'database-manager', 1);
  const db = list.getByRole('listitem', { name: 'io.github.example/database-manager' });
  await db.getByRole('button', { name: 'Details' }).click();
  const form = db.getByRole('form', { name: 'Add io.github.example/database-manager' });
  const dbType = form.getByLabel('db_type');
  assert.equal(await dbType.inputValue(), '');
  assert.equal(await dbType.locator('option:checked').innerText(), 'Choose…');
  assert.equal(await form.getByLabel('host').inputValue(), 'localhost'); // a default, prefilled and editable
  assert.match(await form.innerText(), /port \(argument, optional\) Database port/);
  await form.getByTestId('registry-preview').filter({ hasText: 'Fill in db_type, database_name, DB_USERNAME, DB_PASSWORD' }).waitFor();
  await form.getByRole('button', { name: 'Add' }).click(); // the browser holds it: nothing chosen
  assert.equal(await dbType.evaluate((s) => s.validity.valueMissing), true);
  await dbType.selectOption('postgres');
  await form.getByLabel('database_name').fill('mydb');
  await form.getByLabel('DB_USERNAME').fill('u');
  await form.getByLabel('DB_PASSWORD').fill('db-e2e-SECRET-4');
  await form.getByLabel('port').fill('5432');
  const preview = form.getByTestId('registry-preview');
  await preview.filter({ hasText: 'example/database-manager-mcp:3.1.0 --host localhost --port 5432 mydb' }).waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, `registry-optional-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  await form.getByRole('button', { name: 'Add' }).click();
  await browse.getByRole('status').filter({ hasText: 'Added database-manager' }).waitFor();
  const r = row(page, 'database-manager');
  await r.waitFor({ timeout: 15_000 });
  assert.match(await r.innerText(), /--host localhost --port 5432 mydb/);

  // A deprecated server is marked in the list and in its details; a deleted one cannot be added.
  list = await searchFor(page, browse, 'old-forecast', 1);
  const old = list.getByRole('listitem', { name: 'io.github.example/old-forecast' });
  await old.getByText('deprecated', { exact: true }).waitFor();
  await old.getByRole('button', { name: 'Details' }).click();
  await old.getByRole('note').filter({ hasText: /^Deprecated in the registry/ }).waitFor();
  await screenshot(page, 'registry-deprecated');
  list = await searchFor(page, browse, 'malware', 1);
  const gone = list.getByRole('listitem', { name: 'io.github.example/malware' });
  await gone.getByText('deleted', { exact: true }).waitFor();
  await gone.getByRole('button', { name: 'Details' }).click();
  assert.equal(await gone.getByRole('button', { name: 'Add' }).isDisabled(), true);

  // A description of one 100-character word stays on screen at 720 px.
  list = await searchFor(page, browse, 'example/long', 1);
  const long = list.getByRole('listitem', { name: 'io.github.example/long' });
  await long.getByRole('button', { name: 'Details' }).click();
  await page.setViewportSize({ width: 720, height: 900 });
  await long.scrollIntoViewIfNeeded();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
  assert.equal(await long.evaluate((li) => [...li.querySelectorAll('p, div')].every((e) => e.scrollWidth <= e.clientWidth + 1)), true);
  await screenshot(page, 'registry-long-720');
  await page.setViewportSize({ width: 1200, height: 800 });

  await serverAction(r, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove database-manager?' }).getByRole('button', { name: 'Remove' }).click();
  await r.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Browse: search across pages, details, Add; a stale listing says how old it is', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/settings' });
  const browse = await useRegistry(page);
  const list = browse.getByRole('list', { name: 'Registry servers' });
  await list.getByRole('listitem', { name: 'io.github.example/weather' }).waitFor();
  assert.equal(await list.getByRole('listitem').count(), 30); // one page
  await browse.getByRole('button', { name: 'More results' }).click();
  await list.getByRole('listitem', { name: 'io.github.example/filler-40' }).waitFor();
  assert.equal(await list.getByRole('listitem').count(), 54); // 4 examples, 40 fillers, the hostile one, the spec's 9 (their older version left out)
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
