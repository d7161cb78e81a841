// Shared helpers for e2e tests: a Chromium from Debian driven by playwright-core.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A new folder under the OS temp dir, named PREFIX plus random letters,
 * removed with everything in it when this test file's process exits
 * (each file runs in a process of its own), whether its tests passed or not.
 * Links inside it are removed, not followed.
 */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags that keep Chromium quiet on a closed network and runnable as root.
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Launch headless Chromium; close it with browser.close(). Under run.mjs it
 * connects to the shard's Chromium instead (E2E_BROWSER_WS, see
 * launchServer): each test file is a process of its own, and a connection
 * takes a fraction of the second or two a launch does on a busy machine.
 * Closing a connected browser closes the contexts (pages) it made and
 * disconnects; each page is a context of its own either way.
 */
export function launch() {
  const ws = process.env.E2E_BROWSER_WS;
  if (ws) return chromium.connect(ws);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** launchServer starts the Chromium that launch connects to (run.mjs; stop it with close()). */
export function launchServer() {
  return chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run e2e tests through 'make test-e2e' (frontend/e2e/run.mjs)`);
  return v;
}

/** Open the app in a new page and wait until the Go bindings are callable. */
export async function openApp(browser, { colorScheme = 'light', hash = '' } = {}) {
  const page = await browser.newPage({ colorScheme, viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => {
    // Wails' own dev-mode overlay (bundled in /wails/ipc.js) throws while it
    // mounts in a plain browser; it is not the app's code, so it is logged only.
    if (String(e.stack).includes('/wails/ipc.js')) {
      console.log(`ignored wails dev overlay error: ${e.message}`);
      return;
    }
    // The shared page's errors go to the test using it now (sharedApp).
    (shared?.page === page ? shared.errors : errors).push(e);
  });
  await page.goto(env('E2E_URL') + '/' + hash);
  await page.waitForFunction(() => typeof window.go?.gui?.Window?.Info === 'function');
  return { page, errors };
}

let shared = null; // sharedApp's page: { browser, page, errors }

/**
 * sharedApp is openApp for the tests of a file, which run one after
 * another: the first call opens a page as openApp does, later ones load the
 * app afresh in that same page (a new document at the hash, the size and
 * colour scheme openApp gives) instead of a new browser context and page,
 * which cost a second or more each on a busy machine. errors holds this
 * test's page errors only; the page's close() does nothing (the file's
 * browser.close() ends it). For tests that add no listeners, routes or
 * init scripts to the page, which would outlive them.
 */
export async function sharedApp(browser, { colorScheme = 'light', hash = '' } = {}) {
  const errors = [];
  if (!shared || shared.browser !== browser || shared.page.isClosed()) {
    const { page, errors: first } = await openApp(browser, { colorScheme, hash });
    shared = { browser, page, errors: first };
    return { page: keepOpen(page), errors: first };
  }
  const { page } = shared;
  shared.errors = errors;
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.emulateMedia({ colorScheme });
  const url = env('E2E_URL') + '/' + hash;
  if (new URL(page.url()).origin !== new URL(url).origin) {
    await page.goto(url); // the last test left the app
  } else {
    // The URL is changed without a hashchange (no render of the page it
    // names in the old document), then the document is loaded anew.
    await page.evaluate((h) => { history.replaceState(null, '', h); }, '/' + hash);
    await page.reload();
  }
  await page.waitForFunction(() => typeof window.go?.gui?.Window?.Info === 'function');
  return { page: keepOpen(page), errors };
}

/** keepOpen is page with a close() that does nothing. */
function keepOpen(page) {
  return new Proxy(page, {
    get(target, key) {
      if (key === 'close') return async () => {};
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Save a screenshot under frontend/e2e/artifacts and return its path. */
export async function screenshot(page, name) {
  // A transition still running (the navigation drawer sliding shut after a
  // resize) would be caught half way; endless animations (spinners) are not waited for.
  await page.waitForFunction(() => document.getAnimations()
    .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), null, { timeout: 5_000 }).catch(() => {});
  const file = path.join(env('E2E_ARTIFACTS'), `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * untilInPage evaluates fn(arg) in the page until it returns a truthy
 * value, and returns that value. Use it, not page.waitForFunction, for an
 * async fn (a binding call): waitForFunction takes the promise an async
 * function returns for a truthy answer and resolves at once.
 */
export async function untilInPage(page, fn, arg, { timeout = 30_000, interval = 250, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await page.evaluate(fn, arg);
      if (v) return v;
    } catch (err) {
      last = err; // the page is loading, or the binding not there yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * Poll url until it serves the app page, failing early when isDead() says
 * the server process exited. The deadline is a failure, not a sync point.
 * The bound call is made from a page of browser when given (a test's own,
 * so no second Chromium is started for it), else of a Chromium of its own.
 */
export async function waitForApp(url, { timeoutMs, isDead, browser }) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('the app exited before it came up');
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      if (res.ok && body.includes('<div id="root">')) {
        // The page is served; now wait until the Go side answers a bound call.
        const b = browser ?? await launch();
        const page = await b.newPage();
        try {
          await page.goto(url);
          await page.waitForFunction(() => typeof window.go?.gui?.Window?.Info === 'function', null, { timeout: 60_000 });
          await page.evaluate(() => window.go.gui.Window.Info());
          return;
        } finally {
          await (browser ? page.close() : b.close());
        }
      }
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`app did not come up at ${url} within ${timeoutMs / 1000}s (last: ${last})`);
}

// The fake model provider (app/chat/provider/testdata/fakellm), scripted over HTTP.

/** scriptModel queues the fake model's next replies. */
export async function scriptModel(...replies) {
  const res = await fetch(`${env('E2E_FAKELLM_URL')}/__fake/enqueue`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(replies),
  });
  assert.equal(res.status, 200, await res.text());
}

/** resetModel forgets queued replies and recorded requests. */
export async function resetModel() {
  await fetch(`${env('E2E_FAKELLM_URL')}/__fake/reset`, { method: 'POST' });
}

/** fakeCalls returns every HTTP call the fake provider received (model lists too). */
export async function fakeCalls() {
  const res = await fetch(`${env('E2E_FAKELLM_URL')}/__fake/requests`);
  return res.json();
}

/** modelRequests returns the bodies of the model requests (chat completions) so far. */
export async function modelRequests() {
  return (await fakeCalls()).filter((c) => c.method === 'POST' && /chat\/completions$/.test(c.path)).map((c) => c.body);
}

/** seedChat writes a chat of n messages into the running app's history database ("Message i of TITLE:" starts each). */
export function seedChat(title, n) {
  const db = path.join(env('E2E_DATA_DIR'), 'history.db');
  // run.mjs built it (app/history/testdata/seedchat).
  execFileSync(env('E2E_SEEDCHAT'), ['-db', db, '-title', title, '-messages', String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
}

/**
 * testServer puts the testserver (mcpmanager/testdata/testserver, which
 * run.mjs built) at file: it serves the mode it is named after (extapp,
 * modernserver, …).
 */
export function testServer(file) {
  copyFileSync(env('E2E_TESTSERVER'), file);
  chmodSync(file, 0o755);
}

/**
 * startOwnApp runs a private copy of the shard's app (its development
 * build, found by the shared app's data dir, through /proc/PID/exe since
 * its file in build/bin may be replaced), on a free loopback port with its own data dir
 * and environment (a throw-away HOME for discovery, say). It returns its
 * URL and stop(); the caller removes its folders. Give it the test's
 * browser, if it has one already, to check the app is up with.
 */
export async function startOwnApp({ dataDir, env: extra = {}, browser }) {
  const { readdirSync, readFileSync, readlinkSync } = await import('node:fs');
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const shared = env('E2E_DATA_DIR');
  const pid = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).find((d) => {
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      return argv.includes(shared) && /switchboard/.test(readlinkSync(`/proc/${d}/exe`));
    } catch {
      return false;
    }
  });
  assert.ok(pid, 'the app run.mjs runs is found (run through make test-e2e)');
  const port = await new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  const url = `http://127.0.0.1:${port}`;
  const frontend = path.resolve(import.meta.dirname, '..');
  let exited = false;
  const child = spawn(`/proc/${pid}/exe`, ['--data-dir', dataDir], {
    env: {
      ...process.env, SWITCHBOARD_DATA_DIR: dataDir, ...extra,
      devserver: `127.0.0.1:${port}`, assetdir: path.join(frontend, 'dist'), frontenddevserverurl: '', loglevel: 'Warning',
    },
    detached: true, stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', () => { exited = true; });
  await waitForApp(url, { timeoutMs: 60_000, isDead: () => exited, browser });
  return {
    url,
    async stop() {
      if (exited) return;
      process.kill(-child.pid, 'SIGTERM');
      const deadline = Date.now() + 10_000;
      while (!exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (!exited) process.kill(-child.pid, 'SIGKILL');
    },
  };
}

/**
 * chatControls makes the open chat's provider, model, Tools and Export
 * controls reachable: in a narrow header (below ChatHeader's COMPACT_BELOW)
 * they are in the "⋯" menu, which it opens (Escape closes it). The header
 * can change form while the chat list and the page around it fill in, so it
 * goes on until the Tools button is on screen.
 */
export async function chatControls(page, { timeout = 15_000 } = {}) {
  const tools = page.getByRole('button', { name: /^Tools: / });
  const more = page.getByRole('button', { name: 'Chat options' });
  const deadline = Date.now() + timeout;
  while (!(await tools.isVisible())) {
    if (Date.now() > deadline) throw new Error('the chat header shows neither its Tools button nor its ⋯ menu');
    // The header can change form between the look and the next step (the ⋯
    // button goes, the controls show): reading its state or clicking it
    // gives up after a second and goes round again, to the look above,
    // instead of waiting the default 30 s for a button that is not coming
    // back (a CI run timed out in getAttribute so).
    const gone = (err) => { if (err.name !== 'TimeoutError') throw err; return 'gone'; };
    const expanded = (await more.isVisible()) ? await more.getAttribute('aria-expanded', { timeout: 1_000 }).catch(gone) : 'gone';
    if (expanded !== 'gone' && expanded !== 'true') {
      await more.click({ timeout: 1_000 }).catch(gone);
    } else await page.waitForTimeout(100);
  }
}

/**
 * standInBrowser makes xdg-open (generic mode, as under Xvfb) hand http(s)
 * URLs to a script that records them instead of starting a real browser.
 * recordedURL waits until it was asked to open one; uninstall puts the
 * desktop's choice back.
 */
export function standInBrowser() {
  const urlsFile = path.join(env('XDG_DATA_HOME'), 'e2e-browser-urls.txt');
  const mimeapps = path.join(env('XDG_CONFIG_HOME'), 'mimeapps.list');
  const apps = path.join(env('XDG_DATA_HOME'), 'applications');
  mkdirSync(apps, { recursive: true });
  mkdirSync(path.dirname(mimeapps), { recursive: true });
  const script = path.join(env('XDG_DATA_HOME'), 'e2e-browser');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${urlsFile}'\n`);
  chmodSync(script, 0o755);
  writeFileSync(path.join(apps, 'switchboard-e2e-browser.desktop'),
    `[Desktop Entry]\nType=Application\nName=e2e browser\nExec=${script} %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\nNoDisplay=true\n`);
  writeFileSync(mimeapps,
    '[Default Applications]\nx-scheme-handler/http=switchboard-e2e-browser.desktop\nx-scheme-handler/https=switchboard-e2e-browser.desktop\n');
  rmSync(urlsFile, { force: true });
  return {
    async recordedURL(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        try {
          const first = readFileSync(urlsFile, 'utf8').split('\n')[0];
          if (first) return first;
        } catch {
          // not opened yet
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the app did not open a browser within ${timeoutMs / 1000}s`);
    },
    /** forget drops the URLs recorded so far: recordedURL waits for the next. */
    forget() {
      rmSync(urlsFile, { force: true });
    },
    uninstall() {
      rmSync(mimeapps, { force: true });
    },
  };
}

/**
 * answerSaveDialog waits for the native save dialog titled title on the
 * test display and saves: under path when given (typed over the suggested
 * name), else the name and folder it offers.
 */
export async function answerSaveDialog(title, path) {
  const deadline = Date.now() + 30_000;
  let win = '';
  while (!win) {
    try {
      win = execFileSync('xdotool', ['search', '--onlyvisible', '--name', `^${title}$`], { encoding: 'utf8' }).trim().split('\n')[0];
    } catch {
      if (Date.now() > deadline) throw new Error(`no "${title}" dialog appeared on the display`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  // No window manager on the test display: focus it directly; keys then go
  // to it through XTEST, as a person's would.
  execFileSync('xdotool', ['windowfocus', '--sync', win]);
  if (path !== undefined) {
    // GTK's file chooser: Ctrl+A selects the suggested name, a full path replaces it.
    execFileSync('xdotool', ['key', 'ctrl+a']);
    execFileSync('xdotool', ['type', '--delay', '20', path]);
  }
  execFileSync('xdotool', ['key', 'Return']);
}

/**
 * serverAction presses one of a server card's rarer actions (Details,
 * Remove…): they are in the card's "⋯" menu, which it opens first.
 */
export async function serverAction(row, name) {
  await row.getByRole('button', { name: /^More actions for / }).click();
  await row.getByRole('group', { name: /^More actions for / }).getByRole('button', { name }).click();
}
