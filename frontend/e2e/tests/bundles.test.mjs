// MCP Bundles: a bundle packed here with Anthropic's mcpb CLI (pinned in
// mcpmanager/bundle/testdata/npm) around a small real server is installed
// from the CLI and by dropping the file on the Servers page; its sensitive
// value reaches the server's environment and never the data dir; a
// reinstall keeps it; removing the server deletes the bundle's files; a
// reinstall by another signer shows the difference and needs an explicit
// "Install anyway"; a bundle with another bundle's signature cannot be
// installed; a zip-slip or symlink bundle is refused as soon as its form
// shows; the form shows the tools the bundle declares and the command it
// will run, its path fields fill its width, and a dropped file that is not
// installed does not stay in the data dir.
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
  // The tools it declares, and what it will run with the form's values.
  assert.match(await form.getByRole('region', { name: 'Declared tools' }).innerText(), /show — Shows the environment and arguments/);
  await form.getByTestId('bundle-preview').filter({ hasText: 'Fill in the required values' }).waitFor();
  assert.equal(await form.getByLabel('Greeting').inputValue(), 'hello'); // the default
  assert.equal(await form.getByLabel('Limit').inputValue(), '10');
  assert.equal(await form.getByLabel('API key').getAttribute('type'), 'password');
  await form.getByRole('button', { name: 'Install' }).click();
  await form.getByRole('alert').filter({ hasText: 'API key is required' }).waitFor();
  await form.getByLabel('API key').fill(key);
  await form.getByLabel('Limit').fill('7');
  await form.getByRole('button', { name: 'Add another' }).click();
  await form.getByRole('textbox', { name: 'Folders 2' }).fill('/tmp/e2e-second');
  const run = form.getByLabel('What it will run');
  await run.filter({ hasText: '/tmp/e2e-second' }).waitFor();
  const ran = await run.innerText();
  assert.match(ran, /Will run node \S*\/bundles\/echo-env\/1\.2\.0\/server\/index\.js --greeting hello \S+ \/tmp\/e2e-second as echo-env/);
  assert.match(ran, /Environment: ECHO_API_KEY ECHO_HOME ECHO_LIMIT ECHO_VERBOSE/);
  assert.ok(!ran.includes(key), 'the preview shows the sensitive value');
  // A folder's path fills the form's width, at every window width.
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    const field = await form.getByRole('textbox', { name: 'Folders 2' }).boundingBox();
    const whole = await form.boundingBox();
    assert.ok(field && whole && field.width >= whole.width * 0.5, `the folder field is ${field?.width} px of a ${whole?.width} px form at ${width} px`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-drop-form');
  await form.getByRole('button', { name: 'Install' }).click();
  await page.getByRole('status').filter({ hasText: 'Installed echo-env 1.2.0' }).waitFor();

  const r = row(page, 'echo-env');
  await r.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await r.scrollIntoViewIfNeeded();
  await screenshot(page, 'bundles-drop-installed');
  // The server got the real value: a result echoing it shows it masked at
  // the source (only the real value is masked as ••••ET-2), never in full.
  let shown = cli('tools', 'call', 'echo-env__show', '--args', '{}');
  assert.ok(shown.includes('••••ET-2') && !shown.includes(key), `the result shows the key masked: ${shown}`);
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
  assert.ok(shown.includes('••••ET-2') && !shown.includes(key), `the result shows the kept key masked: ${shown}`);

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

const incoming = () => {
  const dir = path.join(env('E2E_DATA_DIR'), 'bundles', '.incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
};

test('a zip-slip or symlink bundle dropped on the page is refused at once; a file that is not a bundle is named as dropped; no dropped file stays', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  const evil = (name, entry) => {
    const p = path.join(tmp, `${name}.mcpb`);
    execFileSync('python3', ['-c', `
import json, stat, sys, zipfile
z = zipfile.ZipFile(sys.argv[1], 'w')
z.writestr('manifest.json', json.dumps({"manifest_version": "0.3", "name": sys.argv[2], "version": "1.0.0", "description": "d",
  "author": {"name": "x"}, "server": {"type": "node", "entry_point": "i.js", "mcp_config": {"command": "node", "args": ["i.js"]}}}))
z.writestr('i.js', 'x')
if sys.argv[3] == 'slip':
    z.writestr('../../escaped.js', 'x')
else:
    zi = zipfile.ZipInfo('link'); zi.create_system = 3; zi.external_attr = (stat.S_IFLNK | 0o777) << 16
    z.writestr(zi, '/etc/passwd')
z.close()`, p, name, entry]);
    return p;
  };
  for (const [name, says] of [['slip', /entry "..\/..\/escaped.js" leaves the bundle's folder; nothing was installed/], ['link', /entry "link" is a symbolic link; nothing was installed/]]) {
    await drop(page, evil(name, name));
    const form = page.getByRole('form', { name: `Install ${name}` });
    await form.waitFor();
    // Said as the form shows, with nothing to press.
    await form.getByRole('alert').filter({ hasText: says }).waitFor();
    assert.ok(await form.locator('button[type=submit]').isDisabled(), `${name}: Install is enabled`);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, `bundles-${name}-refused`);
    assert.deepEqual(incoming(), [], `${name}: the refused file stays in the data dir`);
    await form.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await row(page, name).count(), 0);
  }
  const notZip = path.join(tmp, 'not-a-bundle.mcpb');
  writeFileSync(notZip, 'hello, I am not a zip');
  await drop(page, notZip);
  const alert = page.getByRole('alert').filter({ hasText: 'not-a-bundle.mcpb is not an MCP Bundle' });
  await alert.waitFor();
  assert.ok(!(await alert.innerText()).includes('.incoming'), 'the message shows the data dir\'s copy');
  // A form closed without installing lets its file go.
  await drop(page, bundle);
  const form = page.getByRole('form', { name: 'Install Echo Env' });
  await form.waitFor();
  assert.equal(incoming().length, 1);
  await form.getByRole('button', { name: 'Cancel' }).click();
  for (const deadline = Date.now() + 5_000; incoming().length > 0 && Date.now() < deadline;) {
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.deepEqual(incoming(), [], 'a cancelled form\'s file stays in the data dir');
  assert.deepEqual(errors, []);
  await page.close();
});
