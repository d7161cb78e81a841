// MCP Bundles: a bundle packed here with Anthropic's mcpb CLI (pinned in
// mcpmanager/bundle/testdata/npm) around a small real server is installed
// from the CLI and by dropping the file on the Servers page; its sensitive
// value reaches the server's environment and never the data dir; a
// reinstall keeps it; removing the server deletes the bundle's files; a
// reinstall by another signer shows the difference and needs an explicit
// "Install anyway"; a bundle with another bundle's signature cannot be
// installed; a zip-slip bundle is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env, launch, screenshot, sharedApp, tempDir, serverAction } from '../lib.mjs';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const testdata = path.join(repo, 'mcpmanager', 'bundle', 'testdata');
const tmp = tempDir('switchboard-bundles-');
let browser;
let bundle;
let signed; // the same bundle, signed with a new self-signed certificate
let foreign; // the bundle with the signed copy's signature block: it does not match

before(async () => {
  browser = await launch();
  bundle = path.join(tmp, 'echo-env.mcpb');
  const mcpb = path.join(testdata, 'npm', 'node_modules', '.bin', 'mcpb');
  execFileSync(mcpb, ['pack', path.join(testdata, 'echo-env'), bundle], { stdio: 'ignore' });
  signed = path.join(tmp, 'echo-env-signed.mcpb');
  copyFileSync(bundle, signed);
  execFileSync(mcpb, ['sign', '--self-signed', '-c', path.join(tmp, 'cert.pem'), '-k', path.join(tmp, 'key.pem'), signed], { cwd: tmp, stdio: 'ignore' });
  const s = readFileSync(signed);
  foreign = path.join(tmp, 'echo-env-foreign.mcpb');
  // Other bytes than were signed (still a zip), then the signed copy's block.
  writeFileSync(foreign, Buffer.concat([readFileSync(bundle), Buffer.from('x'), s.subarray(s.lastIndexOf('MCPB_SIG_V1'))]));
});
after(async () => { await browser?.close(); });

const cli = (...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8' });
const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
const bundlesDir = () => path.join(env('E2E_DATA_DIR'), 'bundles', 'echo-env');

/** grepDataDir: files of the data dir holding s. */
function grepDataDir(s) {
  const hits = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (statSync(p).size < 50_000_000 && readFileSync(p).includes(s)) hits.push(p);
    }
  };
  walk(env('E2E_DATA_DIR'));
  return hits;
}

/** drop hands file to the page as a drag and drop onto the Servers page. */
async function drop(page, file) {
  const data = readFileSync(file).toString('base64');
  const dt = await page.evaluateHandle(({ data, name }) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const t = new DataTransfer();
    t.items.add(new File([bytes], name, { type: 'application/zip' }));
    return t;
  }, { data, name: path.basename(file) });
  const target = page.locator('section.page');
  await target.dispatchEvent('dragover', { dataTransfer: dt });
  await target.dispatchEvent('drop', { dataTransfer: dt });
}

test('a bundle installed from the CLI shows its name, version, author and icon', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  const out = cli('servers', 'install', bundle, '--set', 'api_key=sk-e2e-cli-SECRET-1');
  assert.match(out, /installed echo-env 1\.2\.0: Echo Env by Switchboard Tests/);
  const r = row(page, 'echo-env');
  await r.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  const line = r.getByLabel('Bundle');
  assert.match(await line.innerText(), /Echo Env\s+1\.2\.0\s+by Switchboard Tests/);
  assert.match(await line.innerText(), /Unsigned/);
  assert.ok((await line.locator('img').getAttribute('src')).startsWith('data:image/png;base64,'));
  await r.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-cli-installed');
  cli('servers', 'remove', 'echo-env');
  await r.waitFor({ state: 'detached', timeout: 15_000 });
  assert.equal(existsSync(bundlesDir()), false, 'bundle files left after remove');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bundle dropped on the Servers page installs with its form, reinstalls keeping its key, and uninstalls', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  const key = 'sk-e2e-drop-SECRET-2';

  await drop(page, bundle);
  const form = page.getByRole('form', { name: 'Install Echo Env' });
  await form.waitFor();
  assert.match(await form.getByRole('note', { name: 'Signature' }).innerText(), /Unsigned: nobody vouches/);
  assert.equal(await form.getByLabel('Greeting').inputValue(), 'hello'); // the default
  assert.equal(await form.getByLabel('Limit').inputValue(), '10');
  assert.equal(await form.getByLabel('API key').getAttribute('type'), 'password');
  await form.getByRole('button', { name: 'Install' }).click();
  await form.getByRole('alert').filter({ hasText: 'API key is required' }).waitFor();
  await form.getByLabel('API key').fill(key);
  await form.getByLabel('Limit').fill('7');
  await form.getByRole('button', { name: 'Add another' }).click();
  await form.getByRole('textbox', { name: 'Folders 2' }).fill('/tmp/e2e-second');
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-drop-form');
  await form.getByRole('button', { name: 'Install' }).click();
  await page.getByRole('status').filter({ hasText: 'Installed echo-env 1.2.0' }).waitFor();

  const r = row(page, 'echo-env');
  await r.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await r.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-drop-installed');
  let shown = cli('tools', 'call', 'echo-env__show', '--args', '{}');
  assert.match(shown, new RegExp(key));
  assert.match(shown, /"ECHO_LIMIT":"7"/);
  assert.match(shown, /\/tmp\/e2e-second/);
  assert.deepEqual(grepDataDir(key), [], 'the sensitive value is on disk');

  // Reinstall: the key is kept (left empty), the limit stays 7.
  await drop(page, bundle);
  await form.waitFor();
  assert.match(await form.innerText(), /replaces 1\.2\.0/);
  assert.match(await form.getByLabel('API key').getAttribute('placeholder'), /kept in the keyring/);
  assert.equal(await form.getByLabel('Limit').inputValue(), '7');
  await form.getByRole('button', { name: 'Reinstall' }).click();
  await form.waitFor({ state: 'detached' });
  shown = cli('tools', 'call', 'echo-env__show', '--args', '{}');
  assert.match(shown, new RegExp(key));

  // Uninstall from the window.
  await serverAction(r, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove echo-env?' }).getByRole('button', { name: 'Remove' }).click();
  await r.waitFor({ state: 'detached', timeout: 15_000 });
  // The row goes when config.json changes; the files go after that, before
  // RemoveServer returns: wait for them, within a bound.
  for (const deadline = Date.now() + 15_000; existsSync(bundlesDir()) && Date.now() < deadline;) {
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.equal(existsSync(bundlesDir()), false, 'bundle files left after remove');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reinstall by another signer shows the difference and installs only on "Install anyway"; a foreign signature cannot be installed', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  cli('servers', 'install', bundle, '--set', 'api_key=sk-e2e-signer-SECRET-3');
  const r = row(page, 'echo-env');
  await r.waitFor();

  await drop(page, signed);
  const form = page.getByRole('form', { name: 'Install Echo Env' });
  await form.waitFor();
  const changes = form.getByRole('region', { name: 'Not the bundle you installed' });
  await changes.waitFor();
  const text = await changes.innerText();
  assert.match(text, /Signature\s+was\s+Unsigned: nobody vouches/);
  assert.match(text, /now\s+Signed by .* with a self-signed certificate/);
  assert.equal(await form.getByRole('button', { name: 'Reinstall' }).count(), 0, 'a plain Reinstall button for a changed bundle');
  const confirm = form.getByRole('button', { name: 'Install anyway' });
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await changes.scrollIntoViewIfNeeded();
    await screenshot(page, `bundles-reinstall-changed-${width}`);
    const box = await changes.boundingBox();
    assert.ok(box && box.x + box.width <= width, `the differences stick out of the window at ${width} px`);
  }
  await page.setViewportSize({ width: 720, height: 900 });
  await confirm.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-reinstall-changed-confirm-720');
  await page.setViewportSize({ width: 1200, height: 800 });
  await confirm.click();
  await page.getByRole('status').filter({ hasText: 'Installed echo-env 1.2.0' }).waitFor();
  await r.getByLabel('Bundle').filter({ hasText: 'self-signed' }).waitFor();

  await drop(page, foreign);
  await form.waitFor();
  await form.getByRole('alert').filter({ hasText: 'does not install a bundle whose signature does not match it' }).waitFor();
  assert.match(await form.getByRole('note', { name: 'Signature' }).innerText(), /does not match the bundle/);
  assert.ok(await form.locator('button[type=submit]').isDisabled(), 'a bundle with a foreign signature can be installed');
  assert.equal(await form.getByRole('button', { name: 'Install anyway' }).count(), 0, 'a foreign signature offered as a change to accept');
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-foreign-signature');
  await form.getByRole('button', { name: 'Cancel' }).click();

  cli('servers', 'remove', 'echo-env');
  await r.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a zip-slip bundle dropped on the page is refused', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  const evil = path.join(tmp, 'evil.mcpb');
  execFileSync('python3', ['-c', `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1], 'w')
z.writestr('manifest.json', json.dumps({"manifest_version": "0.3", "name": "evil", "version": "1.0.0", "description": "d",
  "author": {"name": "x"}, "server": {"type": "node", "entry_point": "i.js", "mcp_config": {"command": "node", "args": ["i.js"]}}}))
z.writestr('../../escaped.js', 'x')
z.close()`, evil]);
  await drop(page, evil);
  const form = page.getByRole('form', { name: 'Install evil' });
  await form.waitFor();
  await form.getByRole('button', { name: 'Install' }).click();
  await form.getByRole('alert').filter({ hasText: /entry "..\/..\/escaped.js" leaves the bundle's folder; nothing was installed/ }).waitFor();
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-zip-slip-refused');
  assert.equal(await row(page, 'evil').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
