// MCP client features against the real server-everything: Details shows the
// roots a server is offered (the workspace) and sets its log level
// (logging/setLevel); its log messages arrive with their level and the log
// view filters by level; a task-based tool shows its status on the chat card
// and is cancelled from there (tasks/cancel); the slash-command form
// completes prompt arguments (completion/complete).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { env, launch, modelRequests, resetModel, screenshot, scriptModel, sharedApp, untilInPage, serverAction } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

/** The workspace folder as config.json says, else the default under the data dir. */
function workspaceRoot() {
  const cfg = JSON.parse(readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8'));
  return cfg.settings?.workspace?.root || path.join(env('E2E_DATA_DIR'), 'workspace');
}

test('Details shows the roots and sets the log level; the log filters by level', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  const everything = row(page, 'everything');
  await everything.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await serverAction(everything, 'Details');
  const roots = page.getByRole('list', { name: 'Roots of everything' });
  await roots.waitFor();
  assert.equal((await roots.innerText()).trim(), workspaceRoot());

  const level = page.getByLabel('Log level of everything');
  assert.equal(await level.isEnabled(), true, 'server-everything offers logging');
  await level.selectOption('debug');
  await page.waitForFunction(() => document.querySelector('[aria-label="Log level of everything"]')?.value === 'debug');

  // toggle-simulated-logging sends a message at a random level at once, then one every 5 s.
  const res = await page.evaluate(() => window.go.gui.ToolsPage.CallTool('everything__toggle-simulated-logging', '{}'));
  assert.equal(res.isError, false);
  await everything.getByText(/^Log \(/).click();
  const log = page.getByLabel('Log of everything');
  await log.locator('.log-line[data-level]').first().waitFor({ timeout: 20_000 });
  assert.match(await log.innerText(), /\[(debug|info|notice|warning|error|critical|alert|emergency)\] /);

  // Filtering keeps messages at the level and above; stderr lines go.
  const filter = page.getByLabel('Log level filter of everything');
  await filter.selectOption('emergency');
  await page.waitForFunction(() => {
    const lines = [...document.querySelectorAll('[aria-label="Log of everything"] .log-line')];
    return lines.every((l) => l.dataset.level === 'emergency');
  });
  await filter.selectOption('debug');
  await log.locator('.log-line').first().waitFor();
  const texts = await log.locator('.log-line').allInnerTexts();
  assert.ok(texts.length > 0 && texts.every((t) => /^\[(debug|info|notice|warning|error|critical|alert|emergency)\] /.test(t)), `only messages: ${texts}`);
  await screenshot(page, 'servers-roots-loglevel');
  // Stop the simulated messages again.
  await page.evaluate(() => window.go.gui.ToolsPage.CallTool('everything__toggle-simulated-logging', '{}'));
  assert.deepEqual(errors, []);
  await page.close();
});


test('a task-based tool shows its status live and is cancelled from its card', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  // simulate-research-query has execution.taskSupport "required"; ambiguous, it works for 2 s and
  // then waits for a clarification (input_required), so Cancel always lands before it could finish.
  await scriptModel(
    { toolCalls: [{ id: 'call_task', name: 'everything__simulate-research-query', arguments: '{"topic":"tasks","ambiguous":true}' }] },
    { text: 'The research was stopped.' },
  );
  await box.fill('Research tasks');
  await box.press('Enter');
  const approval = page.getByTestId('approval-card');
  await approval.waitFor();
  await approval.getByRole('button', { name: 'Allow once' }).click();
  const card = page.getByTestId('tool-card').last();
  const task = card.getByRole('status', { name: 'Task of everything__simulate-research-query' });
  await task.and(page.locator('[data-task-status="working"], [data-task-status="input_required"]')).waitFor({ timeout: 15_000 }).catch(async (e) => {
    await screenshot(page, 'chat-task-failed');
    throw new Error(`${e.message}\ncard: ${await card.innerText().catch(() => '?')}`);
  });
  assert.match(await task.innerText(), /task (working|input.required)/);
  await screenshot(page, 'chat-task-working');
  await task.getByRole('button', { name: 'Cancel task' }).click();
  await card.locator('[data-task-status="cancelled"]').waitFor({ timeout: 30_000 }).catch(async (e) => {
    await screenshot(page, 'chat-task-not-cancelled');
    const bodies = await modelRequests();
    const tool = JSON.stringify(bodies[bodies.length - 1]?.messages?.filter((m) => m.role === 'tool'));
    throw new Error(`${e.message}\ncard: ${await card.innerText().catch(() => '?')}\nthe model heard: ${tool}`);
  });
  await page.getByText('The research was stopped.').waitFor();
  // Cancelled, not failed: the card's head says what the user did.
  assert.equal(await card.locator('.tool-status').innerText(), 'cancelled');
  await card.getByRole('button').first().click();
  await card.getByText(/The task was cancelled/).waitFor();
  await screenshot(page, 'chat-task-cancelled');
  const bodies = await modelRequests();
  assert.match(JSON.stringify(bodies[bodies.length - 1]), /The task was cancelled/, 'the model hears the task was cancelled');

  // Reopened from history, the card still says how the task ended.
  await page.reload();
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Research tasks' }).click();
  await page.getByText('The research was stopped.').waitFor();
  await page.getByTestId('tool-card').last().locator('[data-task-status="cancelled"]').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the task time limit and whether optional tools run as tasks are settings', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  const form = page.getByRole('form', { name: 'Tasks' });
  const limit = form.getByLabel(/Task time limit/);
  await untilInPage(page, () => document.querySelector('form[aria-label="Tasks"] input[type="number"]')?.value === '30', null, { what: 'the saved task limit' });
  await limit.fill('45');
  await form.getByLabel(/Run tools that allow tasks as tasks too/).uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  const cfg = JSON.parse(readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8'));
  assert.deepEqual(cfg.settings.tasks, { optionalAsTasks: false, limitMinutes: 45 });
  await limit.fill('0');
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('alert').waitFor();
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-tasks');
  // Back to the defaults, for the tests after this one.
  await limit.fill('30');
  await form.getByLabel(/Run tools that allow tasks as tasks too/).check();
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

/** optionsAre waits until a listbox offers exactly want (an earlier answer may show first). */
async function optionsAre(listbox, want) {
  const deadline = Date.now() + 10_000;
  let got = [];
  while (Date.now() < deadline) {
    got = await listbox.getByRole('option').allInnerTexts().catch(() => []);
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(got, want);
}

test('the slash-command form completes prompt arguments from the server', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/completable');
  await page.getByRole('listbox', { name: 'Prompts' }).getByRole('option', { name: /completable-prompt/ }).waitFor();
  await box.press('Enter');
  const form = page.getByRole('form', { name: 'Arguments of completable-prompt' });
  const department = form.getByRole('combobox', { name: /department/ });
  await department.fill('S');
  const suggestions = form.getByRole('listbox', { name: 'Suggestions for department' });
  await optionsAre(suggestions, ['Sales', 'Support']);
  await suggestions.getByRole('option', { name: 'Sales' }).click();
  assert.equal(await department.inputValue(), 'Sales');
  // The second argument's values depend on the first (completion context).
  const name = form.getByRole('combobox', { name: /name/ });
  await name.focus();
  const people = form.getByRole('listbox', { name: 'Suggestions for name' });
  await optionsAre(people, ['David', 'Eve', 'Frank']);
  await screenshot(page, 'chat-prompt-completion');
  await name.press('ArrowDown');
  await name.press('ArrowDown');
  await name.press('Enter');
  assert.equal(await name.inputValue(), 'Eve');
  await form.getByRole('button', { name: 'Insert' }).click();
  await page.waitForFunction(() => /Please promote Eve to the head of the Sales team/.test(document.querySelector('textarea[aria-label="Message"]')?.value ?? ''));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a resource template is a slash command whose variables complete', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/Dynamic');
  await page.getByRole('listbox', { name: 'Prompts' }).getByRole('option', { name: /Dynamic Text Resource/ }).click();
  const form = page.getByRole('form', { name: 'Arguments of Dynamic Text Resource' });
  const id = form.getByRole('combobox', { name: /resourceId/ });
  await id.fill('7');
  // server-everything's completer offers the id back when it is a positive integer.
  await optionsAre(form.getByRole('listbox', { name: 'Suggestions for resourceId' }), ['7']);
  await form.getByRole('button', { name: 'Insert' }).click();
  await page.waitForFunction(() => (document.querySelector('textarea[aria-label="Message"]')?.value ?? '').includes('<resource uri="demo://resource/dynamic/text/7"'));
  assert.deepEqual(errors, []);
  await page.close();
});
