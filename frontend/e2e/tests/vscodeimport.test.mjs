// A VS Code mcp.json with a password input and VS Code's own variables,
// imported in the window: the preview says where the password goes and
// flags the variable no app gives a value; the typed token lands in the
// keyring only (not in config.json nor its backup); ${userHome} is written
// out; and the server whose argument kept an editor-only variable says so
// in its main sentence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { env, launch, openApp, screenshot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
const TOKEN = 'docs-e2e-token-7f3a9c21';

test('a VS Code mcp.json with a password input and variables imports as it means', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  const fsBin = path.resolve(import.meta.dirname, '../../../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-filesystem');
  // vsedit stops at once (its folder is not there): its Switchboard-only
  // "restart" makes it give up after one quick retry, not five over 30 s
  // of backoff, before its row says why.
  const json = `{
  // .vscode/mcp.json, as VS Code writes it
  "inputs": [
    {"type": "promptString", "id": "docs-token", "description": "Docs API token", "password": true},
    {"type": "pickString", "id": "docs-mode", "description": "Docs mode", "options": ["read", {"label": "Read and write", "value": "write"}], "default": "read"},
    {"type": "promptString", "id": "docs-lang", "description": "Docs language", "default": "en"}
  ],
  "servers": {
    "vsdocs": {"type": "stdio", "command": ${JSON.stringify(fsBin)}, "args": ["\${userHome}"],
      "env": {"DOCS_AUTH": "Bearer \${input:docs-token}", "DOCS_MODE": "\${input:docs-mode}", "DOCS_LANG": "\${input:docs-lang}"}},
    "vsedit": {"type": "stdio", "command": ${JSON.stringify(fsBin)}, "args": ["\${selectedText}"], "restart": {"enabled": true, "maxAttempts": 1, "delayMs": 100}}
  }
}`;
  await wizard.getByLabel('Config JSON').fill(json);
  const preview = wizard.getByRole('table', { name: 'Import preview' });
  await preview.waitFor();
  // Where the password goes, and the variable with no value, before anything is imported.
  await preview.getByText('env.DOCS_AUTH: the password you type for docs-token → keyring').waitFor();
  const problems = wizard.getByRole('list', { name: 'Problems' });
  await problems.getByText(/uses \$\{selectedText\}, which Switchboard gives no value/).waitFor();
  assert.match(await problems.innerText(), /servers\.vsedit\.args\[0\]/);
  const field = wizard.getByLabel(/Docs API token/);
  assert.equal(await field.getAttribute('type'), 'password');
  await field.fill(TOKEN);
  // A pickString is a list to choose from, starting at its default; a
  // promptString's default is filled in.
  const mode = wizard.getByLabel(/Docs mode/);
  assert.equal(await mode.evaluate((el) => el.tagName), 'SELECT');
  assert.deepEqual(await mode.locator('option').allTextContents(), ['read', 'Read and write']);
  assert.equal(await mode.inputValue(), 'read');
  await mode.selectOption('write');
  assert.equal(await wizard.getByLabel(/Docs language/).inputValue(), 'en');
  for (const width of [720, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, `vscode-import-preview-${width}`);
  }

  await wizard.getByRole('button', { name: 'Import 2 servers' }).click();
  await wizard.getByRole('status').getByText(/^Imported 2 servers:/).waitFor();
  const dir = env('E2E_DATA_DIR');
  const cfgText = readFileSync(path.join(dir, 'config.json'), 'utf8');
  assert.ok(!cfgText.includes(TOKEN), 'the typed password is not in config.json');
  const bak = path.join(dir, 'config.json.bak');
  assert.ok(!existsSync(bak) || !readFileSync(bak, 'utf8').includes(TOKEN), 'nor in its backup');
  const docs = JSON.parse(cfgText).mcpServers.vsdocs;
  assert.deepEqual(docs.args, [homedir()], '${userHome} is written out');
  assert.match(docs.env.DOCS_AUTH, /^Bearer \$\{secret:server\.[0-9a-f]{12}\.input\.docs-token\}$/);
  assert.deepEqual([docs.env.DOCS_MODE, docs.env.DOCS_LANG], ['write', 'en'], 'the chosen option and the default');

  await wizard.getByRole('button', { name: 'Close', exact: true }).click();
  await row(page, 'vsdocs').locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  const edit = row(page, 'vsedit');
  await edit.locator('[data-state="error"]').waitFor({ timeout: 60_000 });
  assert.match(await edit.locator('.server-error .error-sentence').innerText(), /its arguments name \$\{selectedText\}, which does not exist; correct the path/);
  for (const width of [720, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await edit.scrollIntoViewIfNeeded();
    await screenshot(page, `vscode-import-servers-${width}`);
  }

  // Edit shows the imported header as a stored secret.
  await row(page, 'vsdocs').getByRole('button', { name: 'Edit', exact: true }).click();
  const form = page.getByRole('form', { name: 'Edit vsdocs' });
  await form.waitFor();
  assert.ok(!(await page.content()).includes(TOKEN), 'the token never reaches the window');
  await form.getByRole('button', { name: 'Cancel' }).click();
  assert.deepEqual(errors, []);
  await page.close();
});

// The apps with a format of their own import in the same wizard: a
// Codex config.toml chosen as a file previews and imports like an
// mcpServers file (a server Codex had switched off stays off), and a
// broken one says where and what to do.
test('a Codex config.toml chosen in the import wizard imports its servers', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  const fsBin = path.resolve(import.meta.dirname, '../../../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-filesystem');
  const toml = `# ~/.codex/config.toml
model = "o3"

[mcp_servers.codexfs]
command = ${JSON.stringify(fsBin)}
args = [${JSON.stringify(homedir())}]
env = { "FS_MODE" = "ro" }

[mcp_servers.codexoff]
command = ${JSON.stringify(fsBin)}
args = ["/"]
enabled = false
`;
  const choose = (text) => wizard.getByLabel('Choose file…').setInputFiles({ name: 'config.toml', mimeType: 'application/toml', buffer: Buffer.from(text) });
  await choose('model = "o3"\n[mcp_servers.codexfs\ncommand = "x"\n');
  // The parser's own words and position, a button that puts the cursor there, and what to do.
  const problems = wizard.getByRole('list', { name: 'Problems' });
  await problems.getByText(/toml: expected '\]' to close table name \(read as Codex's config\); fix the file and import it again/).waitFor();
  await problems.getByRole('button', { name: /^line 2:\d+$/ }).waitFor();
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'codex-import-error-1280');

  await choose(toml);
  const preview = wizard.getByRole('table', { name: 'Import preview' });
  await preview.getByText('codexfs', { exact: true }).waitFor();
  await preview.getByText('codexoff', { exact: true }).waitFor();
  assert.equal(await problems.getByRole('listitem').count(), 0, 'the broken file\'s problem is gone');
  // What Codex had off is said to arrive off, and only that one.
  await preview.getByRole('row', { name: /codexoff/ }).getByText(/^arrives switched off, as it was there/).waitFor();
  assert.equal(await preview.getByRole('row', { name: /codexfs/ }).getByText(/switched off/).count(), 0);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, `codex-import-preview-${width}`);
  }
  await wizard.getByRole('button', { name: 'Import 2 servers' }).click();
  await wizard.getByRole('status').getByText(/^Imported 2 servers:/).waitFor();
  const cfg = JSON.parse(readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8')).mcpServers;
  assert.deepEqual([cfg.codexfs.command, cfg.codexfs.args, cfg.codexfs.env], [fsBin, [homedir()], { FS_MODE: 'ro' }]);
  assert.equal(cfg.codexoff.disabled, true, 'what Codex had off stays off');

  await wizard.getByRole('button', { name: 'Close', exact: true }).click();
  await row(page, 'codexfs').locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await row(page, 'codexoff').locator('[data-state="disabled"]').waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await row(page, 'codexoff').scrollIntoViewIfNeeded();
    await screenshot(page, `codex-import-servers-${width}`);
  }

  // VS Code's own sandbox settings become Switchboard's sandbox, and the
  // preview says what does not carry over (no filter by domain).
  await page.getByRole('button', { name: 'Import…' }).click();
  await wizard.getByLabel('Config JSON').fill(JSON.stringify({ servers: { vsbox: {
    type: 'stdio', command: fsBin, args: ['/srv'], sandboxEnabled: true,
    sandbox: { filesystem: { allowWrite: ['/srv/data'] }, network: { allowedDomains: ['api.example.com'] } },
  }, vsline: { command: `${fsBin} /srv`, sandboxEnabled: true } } }, null, 2));
  const problems2 = wizard.getByRole('list', { name: 'Problems' });
  await problems2.getByText(/lets the server onto the whole network: Switchboard's sandbox does not filter by domain/).waitFor();
  assert.match(await problems2.innerText(), /servers\.vsbox\.sandbox\.network\.allowedDomains/);
  // A whole command line as the command is split, and the preview says so.
  await problems2.getByText(`held the whole command line: split into the command ${JSON.stringify(fsBin)} and the arguments "/srv"`).waitFor();
  await page.setViewportSize({ width: 1280, height: 900 });
  await problems2.scrollIntoViewIfNeeded();
  await screenshot(page, 'vscode-sandbox-import-1280');
  await wizard.getByRole('button', { name: 'Import 2 servers' }).click();
  await wizard.getByRole('status').getByText(/^Imported 2 servers:/).waitFor();
  const imported = JSON.parse(readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8')).mcpServers;
  assert.deepEqual([imported.vsline.command, imported.vsline.args], [fsBin, ['/srv']]);
  const box = imported.vsbox;
  assert.deepEqual(box.sandbox, { network: true, allowWrite: ['/srv/data'] });
  assert.equal(box.sandboxEnabled, undefined, 'VS Code\'s switch is not kept beside it');
  await wizard.getByRole('button', { name: 'Close', exact: true }).click();
  assert.deepEqual(errors, []);
  await page.close();
});
