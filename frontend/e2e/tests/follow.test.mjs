// The window follows config.json: a server that the CLI adds while the app
// is open appears on the Servers page, and disappears when the CLI removes
// it, without a reload (the window reloads the file and tells the page).
// It follows history.db too: a chat 'switchboard chat' starts is listed, and
// a turn it runs in the open chat shows, while it runs and when it ends.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { env, launch, resetModel, screenshot, scriptModel, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const cli = (...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8' });
const cliIn = (input, ...args) => execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { encoding: 'utf8', input });
/** cliRun runs the CLI without waiting: exited says whether it has, done is its stdout (rejects on a failure). */
function cliRun(...args) {
  const child = spawn(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run = { exited: false, done: null };
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  run.done = new Promise((resolve, reject) => child.on('exit', (code) => {
    run.exited = true;
    if (code === 0) resolve(out);
    else reject(new Error(`switchboard ${args.join(' ')} exited with ${code}: ${err}`));
  }));
  return run;
}
const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('a server the CLI adds and removes shows up and goes away', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await row(page, 'content-store').waitFor();
  assert.equal(await row(page, 'from-terminal').count(), 0);

  cli('servers', 'add', 'from-terminal', '--', 'switchboard-e2e-not-installed', '--stdio');
  const added = row(page, 'from-terminal');
  await added.waitFor({ timeout: 15_000 });
  await added.locator('[data-state="error"]').waitFor({ timeout: 15_000 });
  assert.match(await added.innerText(), /switchboard-e2e-not-installed/);
  await added.scrollIntoViewIfNeeded();
  await screenshot(page, 'servers-follow-cli');

  cli('servers', 'remove', 'from-terminal');
  await added.waitFor({ state: 'detached', timeout: 15_000 });
  assert.match(cli('servers', 'list'), /content-store|everything/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a secret the CLI sets shows on the open Settings page', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const table = page.getByRole('table', { name: 'Secrets' });
  const secret = table.getByRole('row', { name: 'E2E_FROM_CLI' });
  assert.equal(await secret.count(), 0);

  cliIn('e2e-value-123456\n', 'secrets', 'set', 'E2E_FROM_CLI');
  await secret.waitFor({ timeout: 15_000 });
  assert.match(await secret.innerText(), /3456/); // masked, last four shown
  assert.doesNotMatch(await secret.innerText(), /e2e-value/);
  await secret.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-follow-cli');

  cli('secrets', 'delete', 'E2E_FROM_CLI');
  await secret.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chat the CLI starts is listed, and its turns show in the open chat as they run', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await chats.waitFor();

  // The terminal starts a chat: the list shows it, no reload.
  await scriptModel({ text: 'Hello from the terminal model.' });
  const { chatId } = JSON.parse(cli('chat', '--yes', '--json', 'Started in the terminal'));
  const entry = chats.getByRole('button', { name: /Started in the terminal/ });
  await entry.waitFor({ timeout: 15_000 });
  await entry.click();
  await page.getByText('Hello from the terminal model.').waitFor();

  // It goes on in the terminal while the window shows it: the question, the
  // answer as far as it is stored while the model still writes, then all of it.
  await scriptModel({ text: 'slow words '.repeat(40) + 'THE END OF THE TERMINAL ANSWER', delay: '150ms' });
  const run = cliRun('chat', '--yes', '--chat', chatId, 'Asked again from the terminal');
  const question = page.getByTestId('message-user').filter({ hasText: 'Asked again from the terminal' });
  await question.waitFor({ timeout: 15_000 });
  await page.getByTestId('message-assistant').and(page.locator('[data-status="incomplete"]')).filter({ hasText: 'slow words' }).waitFor({ timeout: 15_000 });
  assert.equal(run.exited, false, 'the answer so far showed while the terminal still ran the turn');
  await run.done;
  await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).filter({ hasText: 'THE END OF THE TERMINAL ANSWER' }).waitFor({ timeout: 15_000 });
  assert.equal(await question.count(), 1, 'the question shows once');
  assert.equal(await page.getByTestId('message-assistant').filter({ hasText: 'THE END OF THE TERMINAL ANSWER' }).count(), 1, 'the answer shows once');
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `chat-follow-cli-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  assert.deepEqual(errors, []);
  await page.close();
});
