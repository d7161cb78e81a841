// Code mode in the window (#44): Settings → Code mode chooses how chats offer
// the tools (saved to settings.chat.tools); the chat's Tools menu chooses for
// one chat and says what Automatic means for its model. A chat in code mode:
// the model runs one script that creates entities in the memory server (a call
// that asks: one approval card naming the script), reads the graph back, prints
// lines and returns a value; the card shows the script, the nested calls with
// their status, the printed lines (long output folded) and the result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatControls, env, launch, modelRequests, resetModel, screenshot, scriptModel, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const config = () => JSON.parse(readFileSync(path.join(env('E2E_DATA_DIR'), 'config.json'), 'utf8'));

const SCRIPT = `// Two people, then who is in the graph.
const names = ["Ada Lovelace", "Alan Turing"];
await tools.memory.create_entities({
  entities: names.map((n) => ({ name: n, entityType: "person", observations: ["codemode-e2e"] })),
});
const r = await tools.memory.read_graph({});
const graph = r.text !== undefined ? JSON.parse(r.text) : r;
const people = graph.entities.filter((e) => e.observations.includes("codemode-e2e"));
for (let i = 1; i <= 12; i++) console.log(\`line \${i} of the report\`);
console.log("found", people.length, "people");
return { people: people.map((p) => p.name), count: people.length };`;

test('Settings → Code mode saves settings.chat.tools', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  const form = page.getByRole('form', { name: 'Code mode', exact: true });
  await form.scrollIntoViewIfNeeded();
  const group = form.getByRole('radiogroup', { name: 'How the model calls tools' });
  assert.equal(await group.getByRole('radio', { name: /^Automatic/ }).isChecked(), true, 'automatic is the default');
  assert.match(await group.innerText(), /code mode for models whose context window is 32k tokens or less/);
  await group.getByRole('radio', { name: /^Both/ }).check();
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').getByText('Saved').waitFor();
  assert.equal(config().settings.chat.tools, 'both');
  for (const width of [720, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, `codemode-settings-${width}`);
  }
  await group.getByRole('radio', { name: /^Automatic/ }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await form.getByRole('status').getByText('Saved').waitFor();
  assert.equal(config().settings.chat.tools, undefined, 'automatic leaves settings.chat.tools out');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Settings → Code mode for connected apps saves settings.serve.tools', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  const form = page.getByRole('form', { name: 'Code mode for connected apps' });
  await form.scrollIntoViewIfNeeded();
  const group = form.getByRole('radiogroup', { name: 'How connected apps call tools' });
  assert.equal(await group.getByRole('radio', { name: /^Direct/ }).isChecked(), true, 'direct is the default');
  await group.getByRole('radio', { name: /^Code/ }).check();
  await page.getByRole('region', { name: 'Unsaved changes' }).getByText('Code mode for connected apps').waitFor();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await form.getByRole('status').getByText('Saved').waitFor();
  assert.equal(config().settings.serve.tools, 'code');
  for (const width of [720, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, `codemode-serve-settings-${width}`);
  }
  await group.getByRole('radio', { name: /^Direct/ }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await form.getByRole('status').getByText('Saved').waitFor();
  assert.equal(config().settings.serve.tools, 'direct');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chat in code mode shows the script, its calls with one approval, what it printed and returned', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();

  // The chat's Tools menu: Automatic means direct for this model (its window is not known).
  await chatControls(page);
  await page.getByRole('button', { name: /^Tools: / }).click();
  const pop = page.getByRole('dialog', { name: 'Tools for this chat' });
  const group = pop.getByRole('radiogroup', { name: 'How the model calls tools' });
  await group.getByText(/direct for this model \(its context window is not known; code mode at 32k or less\)/).waitFor();
  await group.getByRole('radio', { name: /^Code/ }).check();
  await page.getByRole('button', { name: /^Tools: \d+.*code mode/ }).waitFor();
  const chatId = await page.evaluate(async () => (await window.go.gui.ChatPage.Chats(1, 0))[0].id);
  assert.equal((await page.evaluate((id) => window.go.gui.ChatPage.ChatOptionsOf(id), chatId)).toolMode, 'code');
  assert.deepEqual(await page.evaluate((id) => window.go.gui.ChatPage.ToolModeStatus(id), chatId),
    { mode: 'code', by: 'chat', default: 'direct', window: 0, codeWindow: 32768 });
  await pop.scrollIntoViewIfNeeded();
  await screenshot(page, 'codemode-tools-menu-1280');
  await page.keyboard.press('Escape');

  await scriptModel(
    { when: 'Who is in the graph', toolCalls: [{ id: 'script_1', name: 'run_script', arguments: JSON.stringify({ script: SCRIPT }) }] },
    { when: 'found 2 people', text: 'Ada Lovelace and Alan Turing are in the graph.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Who is in the graph? Add Ada and Alan first.');
  await box.press('Enter');

  // The model was offered code mode's three tools, not the servers' own.
  const approval = page.getByTestId('approval-card');
  await approval.waitFor({ timeout: 60_000 });
  const offered = (await modelRequests())[0].tools.map((t) => t.function.name);
  assert.deepEqual(offered.filter((n) => ['list_functions', 'describe_function', 'run_script'].includes(n)).sort(), ['describe_function', 'list_functions', 'run_script']);
  assert.ok(!offered.includes('memory__create_entities'), `code mode offers no server tool directly: ${offered}`);

  // One approval, naming the script and the call.
  assert.match(await approval.innerText(), /The model's script wants to run/);
  assert.match(await approval.innerText(), /create_entities/);
  await approval.getByText('The script').click();
  assert.match(await approval.getByLabel('The script').innerText(), /tools\.memory\.create_entities/);
  await screenshot(page, 'codemode-approval-1280');
  await approval.getByRole('button', { name: 'Allow once' }).click();

  await page.getByText('Ada Lovelace and Alan Turing are in the graph.').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('approval-card').count(), 0, 'only one approval: read_graph is read-only');
  const card = page.getByTestId('tool-card').filter({ has: page.getByLabel('Script', { exact: true }) }).last();
  await card.waitFor();
  // The script, highlighted, with line numbers.
  const code = card.getByLabel('Script', { exact: true });
  assert.match(await code.innerText(), /await tools\.memory\.read_graph/);
  assert.ok(await code.locator('.tok-kw').count() > 5, 'keywords are highlighted');
  assert.equal(await code.locator('.ln').count(), SCRIPT.split('\n').length);
  // The calls it made, nested, each with its status.
  const calls = card.getByRole('list', { name: 'Calls the script made' });
  await calls.waitFor();
  assert.equal(await calls.getByTestId('sub-step').count(), 2);
  assert.match(await calls.getByTestId('sub-step').nth(0).innerText(), /create_entities[\s\S]*done/);
  assert.match(await calls.getByTestId('sub-step').nth(1).innerText(), /read_graph[\s\S]*done/);
  assert.match(await card.innerText(), /2 calls: 2 done/);
  // Printed: 13 lines, folded to 8 until opened.
  const printed = card.getByLabel('Printed', { exact: true });
  assert.match(await printed.innerText(), /line 1 of the report/);
  assert.doesNotMatch(await printed.innerText(), /found 2 people/, 'long output starts folded');
  const more = card.getByRole('button', { name: 'Show all 13 lines' });
  // Returned.
  const returned = card.getByLabel('Returned', { exact: true });
  assert.deepEqual(JSON.parse(await returned.innerText()), { people: ['Ada Lovelace', 'Alan Turing'], count: 2 });

  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 1000 });
    await card.scrollIntoViewIfNeeded();
    const b = await card.boundingBox();
    assert.ok(b && b.x >= 0 && b.x + b.width <= width, `the card is on screen at ${width} px`);
    const cb = await code.boundingBox();
    assert.ok(cb && cb.x + cb.width <= b.x + b.width + 1, `the script stays inside its card at ${width} px`);
    await screenshot(page, `codemode-card-${width}`);
  }
  await more.click();
  assert.match(await printed.innerText(), /found 2 people/);
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'codemode-card-open-1280');

  // What the model read back: the printed lines and the value, not the graph.
  const last = (await modelRequests()).at(-1);
  const toolMsg = last.messages.filter((m) => m.role === 'tool').at(-1);
  assert.match(JSON.stringify(toolMsg.content), /found 2 people/);
  assert.deepEqual(errors, []);
  await page.close();
  await resetModel();
});
