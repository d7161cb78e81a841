// e2e harness: starts the app's development build (E2E_DEV_BIN: built with
// wails' "dev" tag, as `wails dev` builds it) in browser mode with an
// isolated data dir on a free loopback port, serving frontend/dist, waits
// until the bound Go methods answer, runs its share of e2e/tests/*.test.mjs
// with node's test runner, then stops the whole process group. Run it under
// xvfb-run and dbus-run-session (see e2e/shards.sh, which the Makefile's
// test-e2e runs): the app also opens its native window, and nothing may
// reach the user's display or keyring.
//
// E2E_SHARD=K/N runs the K-th of N shares of the files (shards.sh runs the
// N harnesses side by side, each with its own display, keyring, model and
// app: the tests mostly wait on the window, so two shares take little more
// than half the time of one run).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchServer, waitForApp } from './lib.mjs';

const frontend = path.resolve(import.meta.dirname, '..');
const repo = path.resolve(frontend, '..');
const artifacts = path.join(frontend, 'e2e', 'artifacts');
mkdirSync(artifacts, { recursive: true });

const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-'));
const dataDir = path.join(tmp, 'data');
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
// WEIGHTS: each file's seconds in one serial run on 2 cores (2026-12-03, from
// its TAP durations, two shards on a machine shared with other runs; see share). Refresh them when a file grows a lot:
// node frontend/e2e/weights.mjs frontend/e2e/artifacts/shard-*.txt
const WEIGHTS = {
  accelerators: 34, apps: 49, apps2026: 36, bundles: 41, chat: 23, chatactions: 18, chatpolish: 19,
  clientfeatures: 17, closewithapps: 22, codemode: 20, connectedapps: 31, content: 16,
  contextassumed: 6, contextwindow: 26, editserver: 18, firsthour: 43, firststart: 20, follow: 17,
  forms: 9, images: 20, knowledge: 6, layout: 115, layoutpolish: 25, library: 32, localmodel: 54,
  localskills: 23, login: 18, longchat: 28, modern: 15, oauthclient: 17, polish: 19, polishmsg: 20,
  registry: 20, 'remote-images': 14, remote: 6, safety: 13, sandbox: 20, servers: 34, settings: 19,
  shell: 18, 'single-instance': 10, skills: 21, smoke: 10, urlelicit: 28, vscodeimport: 17,
  welcome: 21, workspace: 11,
};
const [shard, shards] = (process.env.E2E_SHARD ?? '1/1').split('/').map(Number);
const logPath = path.join(artifacts, `app-${shard}.log`);
const devBin = process.env.E2E_DEV_BIN;
if (!devBin) throw new Error("E2E_DEV_BIN is not set: run e2e tests through 'make test-e2e'");

// The app starts with real servers from npm (installed by make test) and one
// that cannot start, as a user's imported config would have.
const npmBin = path.join(repo, 'mcpmanager', 'testdata', 'npm', 'node_modules', '.bin');
// A fake model provider speaking the OpenAI and Anthropic wire formats; tests
// script its replies over HTTP (POST /__fake/enqueue). Built in one go with
// the testserver (tests copy it under the name of the mode they run, see
// testServer in lib.mjs), seedchat (seedChat) and testmodel (the local
// model test's GGUF), so no test file links its own.
const bin = path.join(tmp, 'bin');
mkdirSync(bin);
execFileSync('go', ['build', '-o', bin + '/', './app/chat/provider/testdata/fakellm', './mcpmanager/testdata/testserver', './app/history/testdata/seedchat',
  './app/localmodel/testmodel/cmd/testmodel'], { cwd: repo, stdio: 'inherit' });
const fakeBin = path.join(bin, 'fakellm');
const fake = spawn(fakeBin, ['-addr', '127.0.0.1:0'], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
const fakeURL = await new Promise((resolve, reject) => {
  let out = '';
  fake.stdout.on('data', (d) => {
    out += d;
    const m = /FAKELLM_URL=(\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  fake.on('exit', () => reject(new Error('fakellm exited before it listened')));
});

mkdirSync(dataDir, { recursive: true, mode: 0o700 });
writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({
  mcpServers: {
    everything: { command: path.join(npmBin, 'mcp-server-everything') },
    memory: { command: path.join(npmBin, 'mcp-server-memory'), env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
    broken: { command: 'switchboard-e2e-no-such-command', args: ['--x'] },
  },
  settings: {
    chat: {
      providers: [{ name: 'Fake', kind: 'openai', baseUrl: `${fakeURL}/v1`, defaultModel: 'fake-model' }],
      defaultProvider: 'Fake',
    },
  },
}, null, 2));
const log = openSync(logPath, 'w');

// Keep Go's caches where they are, but give the app a private config/data home.
const goEnv = JSON.parse(execFileSync('go', ['env', '-json', 'GOCACHE', 'GOMODCACHE', 'GOPATH'], { encoding: 'utf8' }));
const env = {
  ...process.env,
  ...goEnv,
  XDG_CONFIG_HOME: path.join(tmp, 'config'),
  XDG_DATA_HOME: path.join(tmp, 'share'),
  SWITCHBOARD_DATA_DIR: dataDir,
  NO_COLOR: '1',
};

// A remote server (server-everything over Streamable HTTP) for the tests that add one by URL.
const remotePort = await freePort();
const remote = spawn(path.join(npmBin, 'mcp-server-everything'), ['streamableHttp'], {
  env: { ...process.env, PORT: String(remotePort) }, detached: true, stdio: ['ignore', 'ignore', 'ignore'],
});

console.log(`e2e ${shard}/${shards}: starting the app on ${url} (log: ${path.relative(repo, logPath)})`);
// What 'wails dev' gives its app, less the Vite server: the built frontend
// is served from frontend/dist (make build wrote it).
const dev = spawn(devBin, ['--data-dir', dataDir], {
  cwd: repo,
  env: { ...env, devserver: `127.0.0.1:${port}`, assetdir: path.join(frontend, 'dist'), frontenddevserverurl: '', loglevel: 'Warning' },
  detached: true, stdio: ['ignore', log, log],
});
let devExited = false;
dev.on('exit', () => { devExited = true; });

let code = 1;
let browserServer;
try {
  // One Chromium for the shard, which every test file's launch() connects to.
  browserServer = await launchServer();
  await waitForApp(url, { timeoutMs: 8 * 60_000, isDead: () => devExited });
  const tests = share(readdirSync(path.join(frontend, 'e2e', 'tests'))
    .filter((f) => f.endsWith('.test.mjs'))
    // E2E_ONLY=chat,settings runs just those files (while working on them).
    .filter((f) => !process.env.E2E_ONLY || process.env.E2E_ONLY.split(',').some((n) => f === `${n}.test.mjs`))
    .sort(), shard, shards)
    .map((f) => path.join('e2e', 'tests', f));
  console.log(`e2e ${shard}/${shards}: app is up; running ${tests.length} files`);
  // (node --test given no file would look for tests everywhere.)
  code = tests.length === 0 ? 0 : await new Promise((resolve) => {
    const t = spawn(process.execPath, ['--test', '--test-concurrency=1', ...tests], {
      cwd: frontend,
      stdio: 'inherit',
      env: {
        ...env, E2E_URL: url, E2E_DATA_DIR: dataDir, E2E_ARTIFACTS: artifacts, E2E_REMOTE_URL: `http://127.0.0.1:${remotePort}/mcp`, E2E_FAKELLM_URL: fakeURL,
        E2E_TESTSERVER: path.join(bin, 'testserver'), E2E_SEEDCHAT: path.join(bin, 'seedchat'), E2E_TESTMODEL: path.join(bin, 'testmodel'), E2E_BROWSER_WS: browserServer.wsEndpoint(),
      },
    });
    t.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
  });
} catch (err) {
  console.error(`e2e: ${err.message}`);
  console.error('--- last lines of the app log ---');
  console.error(readFileSync(logPath, 'utf8').split('\n').slice(-60).join('\n'));
} finally {
  await browserServer?.close();
  await stopGroup(dev);
  await stopGroup(remote);
  await stopGroup(fake);
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);

/**
 * share returns the K-th of N shares of files: each file goes to the share
 * with the least expected time so far (its weight below, else one minute),
 * heaviest first, so the shares end at about the same time. The weights
 * are each file's seconds in a serial run on 2 cores; a file that is not
 * listed counts as one minute.
 */
function share(files, k, n) {
  if (n <= 1) return files;
  const weight = (f) => WEIGHTS[f.replace(/\.test\.mjs$/, '')] ?? 60;
  const load = Array(n).fill(0);
  const mine = [];
  for (const f of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const i = load.indexOf(Math.min(...load));
    load[i] += weight(f);
    if (i === k - 1) mine.push(f);
  }
  return mine.sort();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// stopGroup ends wails dev, the app it built, and vite: SIGINT (wails dev
// shuts its children down), then SIGTERM, then SIGKILL to the whole group.
async function stopGroup(child) {
  for (const [sig, waitMs] of [['SIGINT', 10_000], ['SIGTERM', 5_000], ['SIGKILL', 2_000]]) {
    try {
      process.kill(-child.pid, sig);
    } catch {
      return; // group is gone
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      try {
        process.kill(-child.pid, 0);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
