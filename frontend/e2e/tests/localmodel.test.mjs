// A model on this computer, from the welcome page: the pinned list, a
// download that fails (the mirror lacks the file) with Retry, then one that
// stalls half way (progress shows), is cancelled, resumes with a Range
// request, is checked against its pinned SHA-256, and ends "ready" with the
// provider "On this computer" configured.
//
// The model is a small random-weights Qwen3 GGUF written at test time (Go's
// testmodel command; no weights can be fetched here) and served by a file
// server on 127.0.0.1 that is the download URL setting (a mirror). Its hash
// cannot be a pin of the real catalog, so this app's catalog is replaced
// through SWITCHBOARD_MODEL_CATALOG (see localmodel.CatalogEnv for why a
// mirror alone never changes what is checked).
//
// A second download started meanwhile (one the mirror serves half of,
// then stalls) keeps its progress and Cancel in view on the welcome page
// after the first made the choice.
//
// Then a chat runs on it: the app starts llama-server (make test-e2e gives
// it $SWITCHBOARD_LLAMA_SERVER) on the downloaded file and the answer
// streams back; Settings → Models shows it ready, a GGUF file added under a
// long unbreakable name (an Ollama blob's) keeps its Remove button in view
// at 720 px, and a GGUF file LM Studio keeps is offered ("Found on this
// computer") and added.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, screenshot, startOwnApp } from '../lib.mjs';

const FILE = 'Qwen3-Tiny-Test-Q8.gguf';
const SLOW = 'Qwen3-Slow-Test.gguf'; // served half, then stalled until the test ends
// A GGUF file added under an Ollama blob's name: one word of 71 characters.
const BLOB = 'sha256-7260d7' + 'a'.repeat(58);

let browser, tmp, app, mirror, url, dataDir, model;
const seen = []; // the Range header of each request the mirror got
let stall = true; // the first full request stops half way, until cancelled
const stalled = []; // the slow model's responses, ended when the test ends

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-localmodel-'));
  const gguf = path.join(tmp, FILE);
  // app/localmodel/testmodel/cmd/testmodel, which run.mjs built.
  execFileSync(env('E2E_TESTMODEL'), ['-o', gguf], { stdio: ['ignore', 'inherit', 'inherit'] });
  model = readFileSync(gguf);
  const sha = createHash('sha256').update(model).digest('hex');
  const catalog = path.join(tmp, 'catalog.json');
  writeFileSync(catalog, JSON.stringify([
    { Name: 'qwen3-tiny', Title: 'Qwen3 tiny (test)', File: FILE, URL: 'https://huggingface.co/none/resolve/main/' + FILE, Size: model.length, SHA256: sha,
      Licence: 'Apache-2.0', GoodFor: 'Tests: random weights, real speed for its shape', RAM: 300e6, Default: true },
    { Name: 'qwen3-missing', Title: 'Qwen3 missing (test)', File: 'Missing.gguf', URL: 'https://huggingface.co/none/resolve/main/Missing.gguf', Size: 1000, SHA256: 'a'.repeat(64),
      Licence: 'Apache-2.0', GoodFor: 'Tests: the mirror does not have it', RAM: 100e6, Default: false },
    { Name: 'qwen3-slow', Title: 'Qwen3 slow (test)', File: SLOW, URL: 'https://huggingface.co/none/resolve/main/' + SLOW, Size: 2_000_000, SHA256: 'b'.repeat(64),
      Licence: 'Apache-2.0', GoodFor: 'Tests: the mirror sends half, then stalls', RAM: 100e6, Default: false },
  ]));

  // The mirror: the model under its catalog file name, resumable with Range.
  mirror = createServer((req, res) => {
    if (req.url === '/models/' + SLOW) {
      res.writeHead(200, { 'content-length': 2_000_000 });
      res.write(Buffer.alloc(1_000_000)); // then nothing: the download runs on
      stalled.push(res);
      return;
    }
    seen.push(req.headers.range ?? '');
    if (req.url !== '/models/' + FILE) {
      res.writeHead(404).end('not found');
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const from = Number(range[1]);
      res.writeHead(206, { 'content-length': model.length - from, 'content-range': `bytes ${from}-${model.length - 1}/${model.length}` });
      res.end(model.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-length': model.length });
    if (!stall) {
      res.end(model);
      return;
    }
    res.write(model.subarray(0, model.length / 2)); // then nothing, until the client gives up
  });
  await new Promise((r) => mirror.listen(0, '127.0.0.1', r));

  const home = path.join(tmp, 'home');
  mkdirSync(home);
  // A model LM Studio keeps (PUBLISHER/REPOSITORY/FILE.gguf): offered as found.
  const lmstudio = path.join(home, '.lmstudio', 'models', 'lmstudio-community', 'Tiny-GGUF');
  mkdirSync(lmstudio, { recursive: true });
  writeFileSync(path.join(lmstudio, 'Tiny-LMStudio-Q8.gguf'), model);
  // A file added before under a blob's name (as 'models add' of an Ollama blob did).
  const blob = path.join(tmp, 'blobs', BLOB);
  mkdirSync(path.dirname(blob));
  writeFileSync(blob, model);
  dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  // The download URL is set before the app starts (as a person would in
  // Settings → Models; that form is tested below), so the welcome page
  // downloads from the mirror.
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({
    // A 1,024-token context keeps the random-weights model's answer short
    // (an answer stops at half the context).
    mcpServers: {}, settings: { chat: { local: { downloadUrl: `http://127.0.0.1:${mirror.address().port}/models/`, context: 1024, files: { [BLOB]: blob } } } },
  }));
  browser = await launch();
  app = await startOwnApp({
    browser,
    dataDir,
    env: {
      HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(tmp, 'share'),
      OLLAMA_HOST: '127.0.0.1:9', SWITCHBOARD_MODEL_CATALOG: catalog,
    },
  });
  url = app.url;
});

after(async () => {
  for (const res of stalled) res.destroy();
  await browser?.close();
  await app?.stop();
  mirror?.closeAllConnections?.();
  mirror?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function shots(page, name, target) {
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await target?.scrollIntoViewIfNeeded();
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the welcome page downloads a model to run on this computer: progress, cancel, resume, ready', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => { if (!String(e.stack).includes('/wails/ipc.js')) errors.push(e); });
  await page.goto(url + '/');
  await page.waitForFunction(() => typeof window.go?.gui?.SettingsPage?.LocalModels === 'function');
  await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor();

  const list = page.getByRole('group', { name: 'Download a model to run on this computer' });
  const tiny = list.getByRole('radio', { name: /Qwen3 tiny \(test\)/ });
  await tiny.waitFor();
  assert.equal(await tiny.isChecked(), true, 'the default is preselected');
  assert.match(await list.textContent(), /25\.5 MB download · needs about 300 MB of memory · Apache-2\.0/);
  assert.deepEqual(seen, [], 'nothing is downloaded before a click');
  await shots(page, 'localmodel-offer', list);

  // A model the mirror lacks: a clear error, and Retry.
  await list.getByRole('radio', { name: /Qwen3 missing/ }).check();
  await page.getByRole('button', { name: /^Download Qwen3 missing/ }).click();
  const alert = page.locator('.local-model-actions').getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.locator('.error-sentence').innerText(), /^Could not download Qwen3 missing \(test\): 127\.0\.0\.1:\d+ answered 404 Not Found\.$/);
  await page.getByRole('button', { name: 'Retry' }).waitFor();
  await shots(page, 'localmodel-error', list);

  // The default model: half arrives, then the mirror stalls.
  await tiny.check();
  await page.getByRole('button', { name: /^Download Qwen3 tiny/ }).click();
  const bar = page.getByRole('progressbar', { name: 'Downloading Qwen3 tiny (test)' });
  await bar.waitFor();
  await page.getByText(/^12\.8 MB of 25\.5 MB \(50%\)$/).waitFor().catch(async (err) => {
    await screenshot(page, 'localmodel-progress-failed');
    throw new Error(`${err.message}\nthe section says: ${await page.locator('.local-models').textContent()}\nrequests: ${JSON.stringify(seen)}`);
  });
  await shots(page, 'localmodel-progress', list);

  // Cancel keeps the partial file; Resume asks the mirror for the rest.
  stall = false;
  await page.getByRole('button', { name: 'Cancel the download of Qwen3 tiny (test)' }).click();
  const resume = page.getByRole('button', { name: /^Resume download \(12\.8 MB of 25\.5 MB here\)$/ });
  await resume.waitFor();
  assert.ok(existsSync(path.join(dataDir, 'models', FILE + '.part')), 'the partial file is kept');

  // A second model's download, which runs on (half arrives, then nothing).
  await list.getByRole('radio', { name: /Qwen3 slow/ }).check();
  await page.getByRole('button', { name: /^Download Qwen3 slow/ }).click();
  await page.getByText(/^1\.0 MB of 2\.0 MB \(50%\)$/).waitFor();
  await tiny.check();
  // Selecting another model does not hide it: its progress and Cancel stay.
  const others = page.getByRole('list', { name: 'Other downloads' });
  await others.getByRole('progressbar', { name: 'Downloading Qwen3 slow (test)' }).waitFor();
  await resume.click();
  const ready = page.getByRole('status').getByText('Chats will use Qwen3 tiny (test), ready on this computer.');
  await ready.waitFor();
  // The choice is made, and the slow download is still in view, with its Cancel.
  const downloads = page.getByRole('list', { name: 'Model downloads' });
  await downloads.getByRole('progressbar', { name: 'Downloading Qwen3 slow (test)' }).waitFor();
  await shots(page, 'localmodel-second-download', downloads);
  await downloads.getByRole('button', { name: 'Cancel the download of Qwen3 slow (test)' }).click();
  await downloads.getByText(/^Qwen3 slow \(test\): download cancelled; 1\.0 MB kept/).waitFor();
  assert.equal(seen.at(-1), `bytes=${model.length / 2}-`, 'the download resumed where it stopped');
  const modelPath = path.join(dataDir, 'models', FILE);
  assert.ok(readFileSync(modelPath).equals(model), 'the file is the one served, verified');
  assert.ok(!existsSync(modelPath + '.part'));
  await shots(page, 'localmodel-ready', ready);

  const cfg = JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8'));
  assert.deepEqual(cfg.settings.chat.providers, [{ name: 'On this computer', kind: 'local', defaultModel: 'qwen3-tiny' }]);
  assert.equal(cfg.settings.chat.defaultProvider, 'On this computer');

  // Settings → Models lists it, with the same section to manage models.
  // Done saves the choice, then moves to the chat: wait for that before
  // going to Settings, or the move lands after it (as it did under load).
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Welcome to Switchboard' }).waitFor({ state: 'detached' });
  await page.waitForFunction(() => location.hash === '#/chat');
  await page.goto(url + '/#/settings');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const row = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: 'On this computer' });
  await row.waitFor();
  assert.match(await row.textContent(), /On this computer.*default.*qwen3-tiny/);
  await page.getByText('Qwen3 tiny (test) is ready.').waitFor();
  await page.getByRole('textbox', { name: 'Download URL' }).waitFor();
  await shots(page, 'localmodel-settings', page.getByRole('group', { name: 'Download a model to run on this computer' }));

  // A file added under one long unbreakable name: at 720 px its name wraps
  // and its Remove button stays in view, inside its row.
  const files = page.getByRole('list', { name: 'GGUF files you chose' });
  const remove = files.getByRole('button', { name: `Remove ${BLOB}` });
  await page.setViewportSize({ width: 720, height: 900 });
  await remove.scrollIntoViewIfNeeded();
  const removeBox = await remove.boundingBox();
  const fileRow = await files.getByRole('listitem').filter({ hasText: BLOB }).boundingBox();
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  assert.ok(removeBox && fileRow && removeBox.x + removeBox.width <= Math.min(width, fileRow.x + fileRow.width) + 0.5 && removeBox.x >= fileRow.x,
    `Remove (${JSON.stringify(removeBox)}) is inside its row (${JSON.stringify(fileRow)}) and the ${width}px window`);
  await screenshot(page, 'localmodel-long-file-name-720');
  await page.setViewportSize({ width: 1280, height: 900 });

  // A model LM Studio keeps is offered, and Add runs it as it is.
  const found = page.getByRole('list', { name: 'Models found on this computer' });
  await found.getByRole('button', { name: 'Add Tiny-LMStudio-Q8 from LM Studio' }).click();
  await found.getByText('added as').waitFor();
  await files.getByRole('listitem').filter({ hasText: 'Tiny-LMStudio-Q8' }).waitFor();
  await shots(page, 'localmodel-found', found);

  // A chat runs on it: llama-server started on the downloaded file, the
  // answer streamed back (random weights: any text).
  await page.goto(url + '/#/chat');
  await page.getByRole('button', { name: 'New chat' }).click();
  // This chat without tools: random weights write no valid tool call, and
  // with tools offered llama-server parses the answer for one (and refuses
  // what is not; a real model's tool calls are the host test's part).
  await page.getByRole('button', { name: /^Tools: [1-9]/ }).click(); // once the built-in servers run
  const tools = page.getByRole('dialog', { name: 'Tools for this chat' });
  await tools.locator('legend input[type="checkbox"]').first().waitFor();
  for (const server of await tools.locator('legend input[type="checkbox"]').all()) {
    await server.uncheck();
  }
  await page.getByRole('button', { name: /^Tools: 0/ }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Say hello.');
  await box.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await answer.and(page.locator('[data-status="complete"]')).waitFor({ timeout: 120_000 }).catch(async (err) => {
    await screenshot(page, 'localmodel-chat-failed');
    throw new Error(`${err.message}\nthe answer: ${await answer.textContent().catch(() => '?')}\nlog: ${readFileSync(path.join(dataDir, 'logs', 'local-model.log'), 'utf8').slice(-3000)}`);
  });
  assert.ok((await answer.textContent()).trim().length > 0, 'the model answered');
  await page.getByRole('button', { name: /^Tools: 0/ }).waitFor(); // the chat kept its tools off
  assert.match(readFileSync(path.join(dataDir, 'logs', 'local-model.log'), 'utf8'), new RegExp(FILE.replace(/\./g, '\\.')), 'llama-server ran the downloaded file');
  await shots(page, 'localmodel-chat', answer);

  // Settings → Models says what runs and what it costs.
  await page.goto(url + '/#/settings');
  const status = page.getByRole('region', { name: 'Model on this computer' });
  await status.getByRole('status').getByText(/Ready · qwen3-tiny/).waitFor();
  assert.match(await status.textContent(), /Context 1,024 tokens \(the size you set\); KV cache f16, under 1 MB/);
  // ggml's CPU backend for this processor's generation, which the runtime chose; its log says so too.
  const cpu = (await status.textContent()).match(/· CPU backend ([a-z0-9_.]+)/)?.[1];
  assert.ok(cpu, 'Settings names the CPU backend the runtime loaded');
  assert.match(readFileSync(path.join(dataDir, 'logs', 'local-model.log'), 'utf8'), new RegExp(`runs on ggml's CPU backend ${cpu} \\(.*libggml-cpu-${cpu}\\.so\\)`));
  await shots(page, 'localmodel-running', status);
  assert.deepEqual(errors, []);
  await page.close();
});
