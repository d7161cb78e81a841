// Servers and Tools pages against real npm servers: badges turn ready (or
// error for a broken command), a tool runs in the playground, and disabling a
// server changes its badge.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { env, launch, screenshot, sharedApp, tempDir, untilInPage, serverAction } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('servers show their live status', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  for (const name of ['everything', 'memory']) {
    await row(page, name).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  }
  const broken = row(page, 'broken');
  await broken.locator('[data-state="error"]').waitFor({ timeout: 30_000 });
  assert.match(await broken.locator('.server-error .error-sentence').innerText(), /^(broken: )?switchboard-e2e-no-such-command was not found: install it, or give its full path as the command in Edit$/);
  assert.match(await row(page, 'everything').innerText(), /\d+ tools/);
  // The built-in content store is listed too, without controls that make no sense for it.
  const builtin = row(page, 'content-store');
  await builtin.locator('[data-state="ready"]').waitFor();
  assert.match(await builtin.innerText(), /built-in\s+9 tools/);
  assert.equal(await builtin.getByRole('button', { name: 'Restart' }).count(), 0);
  // The live log shows what the server wrote to stderr.
  await row(page, 'everything').getByText(/^Log \(/).click();
  const log = page.getByLabel('Log of everything');
  await log.waitFor();
  assert.notEqual((await log.innerText()).trim(), '', 'stderr lines are shown');
  await screenshot(page, 'servers-ready');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the playground runs everything__echo from a generated form', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
  await page.getByLabel('Server', { exact: true }).selectOption('everything');
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: 'echo', exact: true }).click();
  const message = page.getByLabel(/message/i).first();
  await message.fill('hello from playwright');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.waitFor();
  assert.match(await result.innerText(), /Echo: hello from playwright/);
  assert.match(await result.innerText(), /\d+(\.\d)? ms/);
  await screenshot(page, 'tools-echo');

  // Raw JSON mode runs the same tool with typed-in arguments.
  await page.getByLabel('Raw JSON').check();
  await page.getByLabel('Arguments (JSON)').fill('{"message": "raw mode"}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await result.getByText('Echo: raw mode').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('disabling a server changes its badge, enabling brings it back', async () => {
  const { page } = await sharedApp(browser, { hash: '#/servers' });
  const memory = row(page, 'memory');
  await memory.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await memory.getByRole('button', { name: 'Disable' }).click();
  await memory.locator('[data-state="disabled"]').waitFor().catch(async (e) => {
    await screenshot(page, 'servers-disable-failed');
    throw e;
  });
  assert.equal(await memory.locator('.badge').innerText(), 'Disabled');
  await screenshot(page, 'servers-disabled');
  await memory.getByRole('button', { name: 'Enable' }).click();
  await memory.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  // Remove asks first; Cancel keeps the server.
  await serverAction(memory, 'Remove');
  const dialog = page.getByRole('alertdialog', { name: 'Remove memory?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await row(page, 'memory').count(), 1);
  await page.close();
});

test('the import wizard previews, then imports, and the new server starts', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  const fsBin = path.resolve(import.meta.dirname, '../../../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-filesystem');
  const root = tempDir('e2e-fs-');
  const json = `{
  // pasted from Claude Desktop
  "mcpServers": {
    "files": {"command": ${JSON.stringify(fsBin)}, "args": [${JSON.stringify(root)}], "env": {"GITHUB_TOKEN": "ghp_wizardtoken00001234"}},
    "memory": {"command": "uvx", "args": ["some-other-memory"]},
    "bad": {"command": "npx", "args": "-y oops"},
    "docs": {"command": "/nonexistent/docs-server", "args": ["--api-key", "sk-wizarddocs5678"]},
  }
}`;
  await wizard.getByLabel('Config JSON').fill(json);
  const preview = wizard.getByRole('table', { name: 'Import preview' });
  await preview.waitFor();
  const outcome = async (name) => (await preview.locator('tr', { hasText: name }).getAttribute('data-outcome'));
  await preview.locator('tr[data-outcome="invalid"]').waitFor();
  assert.equal(await outcome('files'), 'added');
  assert.equal(await outcome('memory'), 'conflicting');
  assert.equal(await outcome('bad'), 'invalid');
  const problems = wizard.getByRole('list', { name: 'Problems' });
  assert.match(await problems.innerText(), /line 6:\d+ mcpServers\.bad\.args must be an array of strings/);
  // The tokens are shown masked and will move to the keyring: one in env,
  // one written on the command line (only the flag's value moves).
  await preview.getByText('env.GITHUB_TOKEN ••••1234 → keyring').waitFor();
  await preview.getByText('args.api-key ••••5678 → keyring').waitFor();
  const docs = preview.locator('tr', { hasText: 'args.api-key' });
  for (const width of [720, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await docs.scrollIntoViewIfNeeded();
    // The command shown is the one saved: the flag's value is a reference.
    assert.match(await docs.innerText(), /--api-key \$\{secret:server\.[0-9a-f]{12}\.args\.api-key\}/);
    await screenshot(page, `import-preview-args-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  // The default for a name in use keeps the existing server.
  assert.equal(await wizard.getByLabel('Action for memory').inputValue(), 'keep');
  await screenshot(page, 'import-preview');

  await wizard.getByRole('button', { name: 'Import 2 servers' }).click();
  await wizard.getByRole('status').getByText(/^Imported 2 servers:/).waitFor();
  await row(page, 'files').locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  assert.match(await row(page, 'memory').locator('.server-cmd').innerText(), /mcp-server-memory/, 'existing memory kept');
  // The imported token is in the keyring, listed masked in Settings.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const secret = page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: /server\.[0-9a-f]{12}\.env\.GITHUB_TOKEN/ });
  await secret.getByText('••••1234').waitFor();
  assert.match(await secret.innerText(), /files/);
  await page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: /server\.[0-9a-f]{12}\.args\.api-key/ }).getByText('••••5678').waitFor();
  await screenshot(page, 'import-done');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a missing launcher says what to install, on the row and in Test connection', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.setViewportSize({ width: 720, height: 600 });
  // A uvx server whose PATH has no uvx (nor has the app's on this machine).
  const noPath = tempDir('switchboard-e2e-nopath-');
  const entry = JSON.stringify({ mcpServers: { 'weather-uvx': { command: 'uvx', args: ['weather-mcp'], env: { PATH: noPath } } } });
  const n = await page.evaluate((text) => window.go.gui.ServersPage.ApplyImport('weather.json', text, {}, {}, [], false), entry);
  assert.equal(n, 1);
  const weather = row(page, 'weather-uvx');
  await weather.locator('[data-state="error"]').waitFor({ timeout: 30_000 });
  const want = 'uvx is not installed: install uv (https://docs.astral.sh/uv/) or change the command in Edit';
  assert.equal(await weather.locator('.server-error .error-sentence').innerText(), want);
  const details = weather.locator('.server-error details');
  assert.equal(await details.evaluate((d) => d.open), false, 'the technical text waits behind a disclosure');
  await weather.scrollIntoViewIfNeeded();
  await screenshot(page, 'servers-missing-launcher-720');
  await weather.getByRole('button', { name: 'Test connection' }).click();
  const report = page.getByRole('status', { name: 'Test of weather-uvx' });
  await report.getByText(/^Failed at (fetch|start)$/).waitFor({ timeout: 30_000 });
  assert.equal(await report.locator('.error-sentence').first().innerText(), want);
  await page.setViewportSize({ width: 1280, height: 800 });
  await weather.scrollIntoViewIfNeeded();
  await screenshot(page, 'servers-missing-launcher-1280');
  await serverAction(weather, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove weather-uvx?' }).getByRole('button', { name: 'Remove' }).click();
  await weather.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Test connection counts the tools the row counts, and its report scrolls into view', async () => {
  for (const [width, height] of [[720, 600], [1280, 800]]) {
    const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
    await page.setViewportSize({ width, height });
    const everything = row(page, 'everything');
    await everything.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
    const rowCount = Number(/(\d+) tools/.exec(await everything.locator('.server-head').innerText())[1]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await everything.getByRole('button', { name: 'Test connection' }).click();
    const report = page.getByRole('status', { name: 'Test of everything' });
    await report.getByText(/^Connected in \d/).waitFor({ timeout: 60_000 });
    assert.equal(await report.locator('.probe-summary').innerText(), `${rowCount} tools`, 'the test counts what the row counts');
    // The report is on screen, whatever the window's size.
    await untilInPage(page, (sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r && r.top >= 0 && r.top < window.innerHeight;
    }, '[aria-label="Test of everything"]', { what: 'the report in view' });
    await page.screenshot({ path: path.join(env('E2E_ARTIFACTS'), `servers-test-connection-${width}.png`) }); // the viewport: what the person sees
    assert.deepEqual(errors, []);
    await page.close();
  }
});
