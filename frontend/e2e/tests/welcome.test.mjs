// First run: a fresh data dir, a Claude Desktop config in the discovery path
// (HOME and XDG_CONFIG_HOME of a throw-away home) and a fake Ollama on its
// port. The welcome page offers both, imports the servers through the import
// preview, adds Ollama as the provider, and never comes back. This test runs
// its own copy of the dev binary make test-e2e built (bound methods served on
// another loopback port), because the shared app's data dir is set up already.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, screenshot, startOwnApp } from '../lib.mjs';

const frontend = path.resolve(import.meta.dirname, '..', '..');
const repo = path.resolve(frontend, '..');
const npmBin = path.join(repo, 'mcpmanager', 'testdata', 'npm', 'node_modules', '.bin');

let browser, tmp, app, ollama, url, dataDir;

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-welcome-'));
  const home = path.join(tmp, 'home');
  const claude = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claude), { recursive: true });
  writeFileSync(claude, JSON.stringify({
    mcpServers: {
      memory: { command: path.join(npmBin, 'mcp-server-memory'), env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
      everything: { command: path.join(npmBin, 'mcp-server-everything') },
    },
  }, null, 2));
  // Claude Code's file, whose servers are mostly per project ('claude mcp
  // add' writes them there), and Codex's TOML: found and counted as an
  // import reads them.
  writeFileSync(path.join(home, '.claude.json'), JSON.stringify({
    numStartups: 4,
    mcpServers: { notes: { type: 'stdio', command: 'notes-mcp' } },
    projects: {
      '/home/me/web': { allowedTools: [], mcpServers: { 'web-tools': { type: 'stdio', command: 'npx', args: ['-y', 'web-tools-mcp'] } } },
      '/home/me/old': { allowedTools: [] },
    },
  }, null, 2));
  mkdirSync(path.join(home, '.codex'));
  writeFileSync(path.join(home, '.codex', 'config.toml'), 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-server"\nargs = ["--stdio"]\n');
  // A fake Ollama: its model list, as /api/tags answers it.
  ollama = createServer((req, res) => {
    if (req.url === '/api/tags') {
      res.writeHead(200, { 'content-type': 'application/json' });
      // An embedding model sorts first: the page must not take it for chats.
      res.end(JSON.stringify({ models: [{ name: 'all-minilm-embed:latest', model: 'all-minilm-embed:latest' }, { name: 'llama3.2:1b', model: 'llama3.2:1b' }, { name: 'qwen3:4b', model: 'qwen3:4b' }] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise((r) => ollama.listen(0, '127.0.0.1', r));

  dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  browser = await launch();
  app = await startOwnApp({
    browser,
    dataDir,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(tmp, 'share'), OLLAMA_HOST: `127.0.0.1:${ollama.address().port}` },
  });
  url = app.url;
});

after(async () => {
  await browser?.close();
  await app?.stop();
  ollama?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function open() {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => { if (!String(e.stack).includes('/wails/ipc.js')) errors.push(e); });
  await page.goto(url + '/');
  await page.waitForFunction(() => typeof window.go?.gui?.WelcomePage?.Welcome === 'function');
  return { page, errors };
}

test('the welcome page imports the servers found and adds the local model, then never comes back', async () => {
  const { page, errors } = await open();
  await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor();
  const configs = page.getByRole('list', { name: 'Configs found on this machine' });
  await configs.getByText('Claude Desktop', { exact: true }).waitFor();
  assert.match(await configs.textContent(), /Claude Desktop — 2 servers/);
  const models = page.getByRole('list', { name: 'Models running on this machine' });
  await models.getByText('Ollama', { exact: true }).waitFor();
  // The model to use is chosen from Ollama's list; a chat model is chosen to start with.
  const pick = models.getByLabel('Model');
  assert.deepEqual(await pick.locator('option').allTextContents(), ['all-minilm-embed:latest (embeddings, not for chat)', 'llama3.2:1b', 'qwen3:4b']);
  assert.equal(await pick.inputValue(), 'llama3.2:1b');
  assert.match(await page.locator('#welcome-data ~ p').textContent(), new RegExp(dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await screenshot(page, 'welcome-offers');

  // One click opens the import preview with that config; import both servers.
  await page.getByRole('button', { name: 'Import 2 servers from Claude Desktop' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  const preview = wizard.getByRole('table', { name: 'Import preview' });
  await preview.getByRole('cell', { name: 'memory', exact: true }).waitFor();
  await preview.getByRole('cell', { name: 'everything', exact: true }).waitFor();
  await screenshot(page, 'welcome-import-preview');
  await wizard.getByRole('button', { name: 'Import 2 servers' }).click();
  await wizard.getByRole('status').getByText(/^Imported 2 servers:/).waitFor();
  await wizard.getByRole('button', { name: 'Close', exact: true }).click();
  await configs.getByText('Imported', { exact: true }).waitFor();
  await configs.getByText('2 servers, all imported').waitFor();

  // Claude Code's per-project server comes with its user one, marked with
  // its project in the preview; Codex's TOML is listed like the rest.
  assert.match(await configs.textContent(), /Claude Code — 2 servers/);
  assert.match(await configs.textContent(), /Codex — 1 server/);
  await page.getByRole('button', { name: 'Import 2 servers from Claude Code' }).click();
  await preview.getByRole('cell', { name: 'notes', exact: true }).waitFor();
  await preview.getByRole('cell', { name: 'web-tools', exact: true }).waitFor();
  await wizard.getByText(/Claude Code runs it only in the project \/home\/me\/web; here every chat can use it/).waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `welcome-claude-code-projects-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 900 });
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  await wizard.waitFor({ state: 'detached' });

  await pick.selectOption('qwen3:4b');
  for (const width of [720, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await models.scrollIntoViewIfNeeded();
    await screenshot(page, `welcome-model-pick-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 900 });
  await models.getByRole('button', { name: 'Use Ollama' }).click();
  await page.getByRole('status').getByText('Chats will use Ollama (qwen3:4b).').waitFor();
  await screenshot(page, 'welcome-done');
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor({ state: 'detached' });

  const cfg = JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8'));
  assert.deepEqual(Object.keys(cfg.mcpServers).sort(), ['everything', 'memory']);
  const providers = cfg.settings.chat.providers;
  assert.equal(providers.length, 1);
  assert.equal(providers[0].kind, 'ollama');
  assert.equal(providers[0].defaultModel, 'qwen3:4b');
  assert.equal(cfg.settings.chat.defaultProvider, 'Ollama');
  assert.equal(JSON.parse(readFileSync(path.join(dataDir, 'ui.json'), 'utf8')).welcomeDone, true);

  // It does not come back: not on reload, not after the servers are removed.
  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.WelcomePage?.Welcome === 'function');
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  await page.waitForFunction(() => document.querySelector('main h1') !== null);
  assert.equal(await page.getByRole('heading', { name: 'Welcome to Switchboard' }).count(), 0);
  await screenshot(page, 'welcome-not-again');

  // Help → About (the nav's button; the native menu emits the same event).
  await page.getByRole('button', { name: 'About Switchboard' }).click();
  const about = page.getByRole('dialog', { name: 'About Switchboard' });
  await about.getByText(path.join(dataDir, 'logs')).waitFor();
  await about.getByText('MIT License', { exact: true }).waitFor(); // the app's own; the runtime's are listed below it
  await about.getByText('Third-party licences', { exact: false }).first().waitFor();
  await about.getByRole('button', { name: 'Open log folder' }).waitFor();
  await screenshot(page, 'about');
  await page.keyboard.press('Escape');
  await about.waitFor({ state: 'detached' });
  assert.ok(existsSync(path.join(dataDir, 'ui.json')));
  assert.deepEqual(errors, []);
  await page.close();
});
