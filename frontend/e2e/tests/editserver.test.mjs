// A server is added and edited in the window: the blank form adds a real
// server (arguments, a secret variable) that starts with its tools; an edit
// restarts it; the broken server offers Edit beside its error and runs once
// its command is fixed; "Edit as JSON" reports a syntax error as
// line:column. The broken server is put back as it was for later tests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env, launch, screenshot, sharedApp, serverAction } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const memoryBin = path.resolve('..', 'mcpmanager', 'testdata', 'npm', 'node_modules', '.bin', 'mcp-server-memory');
const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
const SECRET = 'e2e-notes-token-5150';

test('add a server through the blank form, then edit it', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await page.getByRole('button', { name: 'Add server…' }).click();
  const form = page.getByRole('form', { name: 'Add server' });
  await form.waitFor();

  // Field problems come from config.json's own rules, under their field.
  await form.getByLabel('Name').fill('notes');
  await form.getByLabel('Tool timeout (seconds)').fill('-1');
  await form.getByRole('button', { name: 'Add and start' }).click();
  await form.getByText('Must be a positive number of seconds, or empty for the default.').waitFor();
  // The failed submit puts focus on the field and counts the problems by the button.
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
  await form.getByRole('alert').filter({ hasText: '1 problem: Tool timeout.' }).waitFor();
  await form.getByLabel('Tool timeout (seconds)').fill('');
  await form.getByRole('button', { name: 'Add and start' }).click();
  await form.getByText(/Needs "command"/).waitFor();

  await form.getByLabel('Command').fill(memoryBin);
  await form.getByRole('button', { name: 'Add argument' }).click();
  await form.getByLabel('Argument 1', { exact: true }).fill('--second');
  await form.getByRole('button', { name: 'Add argument' }).click();
  await form.getByLabel('Argument 2', { exact: true }).fill('--first');
  await form.getByRole('button', { name: 'Move argument 2 up' }).click();
  await form.getByRole('button', { name: 'Add variable' }).click();
  await form.getByLabel('Environment 1 name', { exact: true }).fill('MEMORY_FILE_PATH');
  await form.getByLabel('Environment 1 value', { exact: true }).fill(path.join(env('E2E_DATA_DIR'), 'notes-memory.jsonl'));
  await form.getByRole('button', { name: 'Add variable' }).click();
  await form.getByLabel('Environment 2 name', { exact: true }).fill('NOTES_TOKEN');
  await form.getByLabel('Environment 2 value', { exact: true }).fill(SECRET);
  await form.getByRole('group', { name: 'Environment' }).getByRole('listitem').nth(1).getByLabel('Secret').check();
  await form.getByLabel('Startup timeout (seconds)').fill('45');
  await screenshot(page, 'editserver-add-1280');

  await form.getByRole('button', { name: 'Add and start' }).click();
  const status = form.getByRole('status');
  await status.getByText(/^Saved\. notes is running with \d+ tools\.$/).waitFor({ timeout: 60_000 });
  const allTools = Number(/with (\d+) tools/.exec(await status.textContent())[1]);
  await row(page, 'notes').locator('[data-state="ready"]').waitFor();
  const cfg = readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8');
  assert.ok(!cfg.includes(SECRET), 'the secret value is not in config.json');
  const notes = JSON.parse(cfg).mcpServers.notes;
  assert.deepEqual(notes.args, ['--first', '--second']);
  assert.match(notes.id, /^[0-9a-f]{12}$/, 'the entry has its stable id');
  assert.equal(notes.env.NOTES_TOKEN, `${'$'}{secret:server.${notes.id}.env.NOTES_TOKEN}`, 'the secret is the server\'s own keyring entry');
  assert.equal(notes.startupTimeout, 45000);
  await form.getByRole('button', { name: 'Close' }).click();

  // Edit: the stored secret stays as it is unless a new value is typed.
  await row(page, 'notes').getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('form', { name: 'Edit notes' });
  await edit.waitFor();
  assert.equal(await edit.getByLabel('Argument 1', { exact: true }).inputValue(), '--first');
  assert.equal(await edit.getByLabel('Environment 2 value', { exact: true }).inputValue(), '', 'a stored secret is never sent to the window');
  await edit.getByRole('button', { name: 'Remove argument 2' }).click();
  await edit.getByLabel('Argument 1', { exact: true }).fill('--only');
  // Two tools left out: the server runs with two fewer, and no chat or
  // connected app is offered them.
  await edit.getByLabel('Leave out these tools').fill('delete_entities, delete_relations');
  // An environment file: a relative path is flagged under the field as
  // typed; the full path of a real file saves.
  await edit.getByLabel('Environment file').fill('.env');
  await edit.getByText('Warning: is not an absolute path, so the server will not start; write the file\'s full path').waitFor();
  const envFile = path.join(env('E2E_DATA_DIR'), 'notes.env');
  writeFileSync(envFile, 'NOTES_FROM_FILE=1\n');
  await edit.getByLabel('Environment file').fill(envFile);
  await edit.getByText(/is not an absolute path/).waitFor({ state: 'detached' });
  for (const width of [720, 1920, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await edit.getByLabel('Leave out these tools').scrollIntoViewIfNeeded();
    await screenshot(page, `editserver-leave-out-${width}`);
  }
  await edit.getByRole('button', { name: 'Save and restart' }).click();
  await edit.getByRole('status').getByText(`Saved. notes is running with ${allTools - 2} tools.`, { exact: true }).waitFor({ timeout: 60_000 });
  const after = JSON.parse(readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8')).mcpServers.notes;
  assert.deepEqual(after.args, ['--only']);
  assert.deepEqual(after.excludeTools, ['delete_entities', 'delete_relations']);
  assert.equal(after.envFile, envFile);
  const tools = await page.evaluate(() => window.go.gui.ToolsPage.Tools());
  const notesTools = tools.tools.filter((t) => t.server === 'notes').map((t) => t.tool);
  assert.equal(notesTools.length, allTools - 2, `the Tools page lists ${notesTools}`);
  assert.ok(!notesTools.some((n) => /delete_(entities|relations)/.test(n)), `left out tools listed: ${notesTools}`);
  assert.equal(after.env.NOTES_TOKEN, notes.env.NOTES_TOKEN);
  await screenshot(page, 'editserver-edited-1280');
  await edit.getByRole('button', { name: 'Close' }).click();

  // Leave the list as the other tests expect it.
  await serverAction(row(page, 'notes'), 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove notes?' }).getByRole('button', { name: 'Remove' }).click();
  await row(page, 'notes').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a broken server offers Edit beside its error; fixing the command makes it run; JSON errors say line:column', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.setViewportSize({ width: 720, height: 900 });
  const broken = row(page, 'broken');
  await broken.locator('[data-state="error"]').waitFor({ timeout: 30_000 });
  await screenshot(page, 'editserver-broken-720');
  await broken.getByRole('button', { name: 'Edit broken to fix this' }).click();
  const form = page.getByRole('form', { name: 'Edit broken' });
  await form.waitFor();
  assert.equal(await form.getByLabel('Command').inputValue(), 'switchboard-e2e-no-such-command');
  await form.getByLabel('Command').fill(memoryBin);
  await screenshot(page, 'editserver-fix-720');
  await form.getByRole('button', { name: 'Save and restart' }).click();
  await form.getByRole('status').getByText(/^Saved\. broken is running with \d+ tools\.$/).waitFor({ timeout: 60_000 });
  await broken.locator('[data-state="ready"]').waitFor();

  // Edit as JSON: a syntax error is shown as line:column, nothing is saved.
  await form.getByRole('button', { name: 'Edit as JSON' }).click();
  const text = form.getByLabel(/^Entry \(JSON/);
  await text.fill('{\n  "command": "switchboard-e2e-no-such-command"\n  "args": ["--x"]\n}');
  await form.getByRole('button', { name: 'Save and restart' }).click();
  const problem = form.locator('.field-problem').first();
  await problem.waitFor();
  assert.equal(await problem.innerText(), 'Line 3, column 3: a comma (,) is missing before "args": put one after the value before it.');
  await broken.locator('[data-state="ready"]').waitFor();
  await screenshot(page, 'editserver-json-error-720');

  // Put the broken server back (valid JSON): the save says why it does not start.
  await text.fill('{\n  "command": "switchboard-e2e-no-such-command",\n  "args": ["--x"]\n}');
  await form.getByRole('button', { name: 'Save and restart' }).click();
  await form.getByRole('status').getByText(/^Saved, but broken did not start: .*switchboard-e2e-no-such-command/).waitFor({ timeout: 60_000 });
  await broken.locator('[data-state="error"]').waitFor();
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'editserver-json-1280');
  await form.getByRole('button', { name: 'Close' }).click();
  assert.deepEqual(errors, []);
  await page.close();
});
