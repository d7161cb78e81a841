// Chat: a real app, real MCP servers, and a fake model provider speaking the
// OpenAI wire format (scripted over HTTP): streamed Markdown, a tool call with
// its approval card, history search, and a provider added in Settings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { env, fakeCalls, launch, resetModel, screenshot, scriptModel as script, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function lastRequest() {
  const all = await fakeCalls();
  return JSON.stringify(all[all.length - 1]);
}

test('chat streams Markdown, runs an approved tool call and keeps history', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });

  // 1. A streamed answer rendered as Markdown: a GFM table and highlighted code.
  await script({ text: 'Here you go:\n\n| fruit | count |\n|---|---|\n| apple | 3 |\n\n```js\nconst answer = 42;\n```\n' });
  await box.fill('Show me a table');
  await box.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await answer.locator('table').getByRole('cell', { name: 'apple' }).waitFor();
  await answer.locator('pre code.hljs').waitFor();
  await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).waitFor();
  assert.match(await lastRequest(), /Show me a table/);

  // 2. A read-only tool of a real server runs at once and shows as a card.
  await script(
    { toolCalls: [{ id: 'call_1', name: 'everything__echo', arguments: '{"message":"hello from e2e"}' }] },
    { text: 'The echo tool answered.' },
  );
  await box.fill('Echo something');
  await box.press('Enter');
  await page.getByText('The echo tool answered.').waitFor();
  const tool = page.getByTestId('tool-card').last();
  await tool.getByText('done').waitFor();
  await tool.getByRole('button').first().click();
  await tool.getByText('Echo: hello from e2e').waitFor();
  assert.match(await lastRequest(), /Echo: hello from e2e/, 'the result went back to the model');

  // 2b. A tool's image shows on its card, under its text, as a thumbnail that opens larger.
  await script(
    { toolCalls: [{ id: 'call_img', name: 'everything__get-tiny-image', arguments: '{}' }] },
    { text: 'That is the MCP logo.' },
  );
  await box.fill('Show me the logo');
  await box.press('Enter');
  await page.getByText('That is the MCP logo.').waitFor();
  const imageCard = page.getByTestId('tool-card').last();
  await imageCard.getByText('done').waitFor();
  await imageCard.getByRole('button').first().click();
  const thumb = imageCard.getByRole('img', { name: 'Image from get-tiny-image' });
  await thumb.waitFor();
  assert.match(await thumb.getAttribute('src'), /^data:image\/png;base64,iVBOR/);
  assert.ok(await thumb.evaluate((img) => img.complete && img.naturalWidth > 0), 'the image loads (the window allows data: images)');
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await imageCard.scrollIntoViewIfNeeded();
    const card = await imageCard.boundingBox();
    assert.ok(card && card.x + card.width <= width, `the image's tool card runs off screen at ${width}px`);
    await screenshot(page, `chat-tool-image-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  await imageCard.getByRole('button', { name: 'Image from get-tiny-image' }).click();
  const viewer = page.getByRole('dialog', { name: 'Image from get-tiny-image' });
  await viewer.waitFor();
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });

  // 3. The model's shell command asks first, with the exact command, and runs
  //    in the same terminal session the Workspace page shows.
  await script(
    { toolCalls: [{ id: 'call_2', name: 'workspace__execute_shell', arguments: '{"command":"echo hi-from-the-model"}' }] },
    { text: 'The command ran.' },
  );
  await box.fill('Run a command');
  await box.press('Enter');
  const card = page.getByTestId('approval-card');
  await card.waitFor();
  assert.match(await card.textContent(), /workspace__execute_shell/);
  assert.match(await card.locator('pre').textContent(), /"command": "echo hi-from-the-model"/);
  await screenshot(page, 'chat-approval');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await page.getByText('The command ran.').waitFor();
  assert.match(await lastRequest(), /hi-from-the-model/);
  await screenshot(page, 'chat-tool-call');

  // 4. A server's form (elicitation) is rendered from its schema, defaults filled in.
  await script(
    { toolCalls: [{ id: 'call_3', name: 'everything__trigger-elicitation-request', arguments: '{}' }] },
    { text: 'Thanks for the details.' },
  );
  await box.fill('Ask me something');
  await box.press('Enter');
  // The tool is not read-only: it asks first, then the server's form appears.
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  const form = page.getByTestId('elicit-form');
  await form.waitFor();
  await form.getByLabel(/String with default/).first().waitFor();
  assert.equal(await form.getByLabel(/String with default/).first().inputValue(), 'It was a dark and stormy night.');
  await form.getByLabel(/^String\*?$/).first().fill('Ada Lovelace');
  await screenshot(page, 'chat-elicitation');
  await form.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Thanks for the details.').waitFor();
  assert.match(await lastRequest(), /Ada Lovelace/);

  // 5. History: the chat is listed under its first message and found by search.
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Show me a table' }).waitFor();
  await page.getByLabel('Search chats').fill('apple');
  await page.getByRole('list', { name: 'Search results' }).locator('mark', { hasText: 'apple' }).first().waitFor();
  await page.getByLabel('Search chats').fill('');

  // 6. A reload shows the stored conversation with its tool card.
  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.ChatPage?.Chats === 'function');
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Show me a table' }).click();
  await page.getByText('The echo tool answered.').waitFor();
  assert.equal(await page.getByTestId('tool-card').count(), 4);
  await screenshot(page, 'chat-history');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a denied tool call is reported to the model, a command that reads as another is written out, and Esc stops a slow answer', async () => {
  await resetModel(); // nothing an earlier test left queued answers this one's turns
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await script(
    { toolCalls: [{ id: 'call_d', name: 'workspace__delete_file', arguments: '{"path":"notes.txt"}' }] },
    { text: 'Understood, I will not.' },
  );
  await box.fill('Try the tool');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Deny' }).click();
  await page.getByText('Understood, I will not.').waitFor();
  assert.match(await lastRequest(), /denied/);
  assert.equal(await page.getByTestId('tool-card').getByText('denied').count(), 1);

  // A command that reads as something else raw (a bidi isolate pair, a zero-width space, padding)
  // is written out on the card, each part highlighted; denied, it never runs.
  await script(
    { toolCalls: [{ id: 'call_b', name: 'workspace__execute_shell', arguments: `{"command":"ls \\u2067;touch PWNED_T3\\u2069 # list files ec\\u200bho${' '.repeat(600)}done"}` }] },
    { text: 'Not that one either.' },
  );
  await box.fill('Try a command');
  await box.press('Enter');
  const card = page.getByTestId('approval-card');
  const args = card.getByLabel('Arguments');
  await args.waitFor();
  assert.equal(await args.textContent(), '{\n  "command": "ls \\u2067;touch PWNED_T3\\u2069 # list files ec\\u200Bho[600 spaces]done"\n}');
  assert.equal(await card.locator('.invisible-code').count(), 3);
  assert.equal(await card.locator('.invisible-run').count(), 1);
  await screenshot(page, 'chat-approval-invisible');
  await card.getByRole('button', { name: 'Deny' }).click();
  await page.getByText('Not that one either.').waitFor();
  assert.equal(await page.getByTestId('tool-card').getByText('denied').count(), 2);

  // A slow stream: Esc in the composer stops it and the message says so.
  await script({ text: 'a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(20), chunkSize: 2, delay: '200ms' });
  await box.fill('Talk slowly');
  await box.press('Enter');
  await page.getByRole('button', { name: 'Stop' }).waitFor();
  // Esc once the answer streams: Stop shows as soon as the turn starts, and on a loaded machine an
  // Esc before the request reached the model left the slow reply queued for the next test's turn.
  await page.getByTestId('message-assistant').last().getByText(/a b c/).waitFor();
  await box.press('Escape');
  await page.getByText('Stopped.').waitFor();
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a provider added in Settings keeps its key in the keyring', async () => {
  const key = 'sk-e2e-provider-0123456789abcd';
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  const table = page.getByRole('table', { name: 'Providers' });
  await table.getByRole('row', { name: 'Fake' }).waitFor();
  await page.getByRole('button', { name: 'Add provider' }).click();
  const form = page.getByRole('form', { name: 'Provider' });
  await form.getByLabel('Name', { exact: true }).fill('Anthropic work');
  await form.getByRole('combobox', { name: /^Kind/ }).selectOption('anthropic');
  await form.getByLabel('Default model').fill('claude-test');
  await form.getByLabel('API key').fill(key);
  await form.getByRole('button', { name: 'Save provider' }).click();
  const row = table.getByRole('row', { name: 'Anthropic work' });
  await row.getByText('stored').waitFor();
  // Saved, then asked for its models: a made-up key does not work, and the form says so.
  await form.getByRole('alert').filter({ hasText: /^Saved, but it does not work yet: / }).waitFor({ timeout: 30_000 });
  await form.getByRole('button', { name: 'Cancel' }).click();
  assert.ok(!(await page.content()).includes(key), 'the key is not in the page');
  await page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: /provider\.Anthropic_work\.API_KEY/ }).waitFor();
  await screenshot(page, 'settings-providers');
  // Delete asks first.
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a slash command expands a server prompt and a resource can be attached', async () => {
  await resetModel(); // nothing an earlier test left queued answers this one's turns
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/args');
  const menu = page.getByRole('listbox', { name: 'Prompts' });
  await menu.getByRole('option', { name: /args-prompt/ }).waitFor();
  await box.press('Enter');
  const form = page.getByRole('form', { name: 'Arguments of args-prompt' });
  await form.getByLabel(/city/).fill('Lisbon');
  await form.getByRole('button', { name: 'Insert' }).click();
  await page.waitForFunction(() => document.querySelector('textarea[aria-label="Message"]')?.value === "What's weather in Lisbon?");

  await page.getByRole('button', { name: 'Attach' }).click();
  const attach = page.getByRole('dialog', { name: 'Attach a resource' });
  await attach.getByLabel('Filter resources').fill('.md');
  await attach.getByRole('button').first().click();
  const chip = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem').first();
  await chip.waitFor();
  await screenshot(page, 'chat-prompt-attach');
  await script({ text: 'Sunny, with a document attached.' });
  await box.press('Enter');
  await page.getByText('Sunny, with a document attached.').waitFor();
  const body = await lastRequest();
  assert.match(body, /What's weather in Lisbon\?/);
  assert.match(body, /<resource uri=\\"demo:\/\//);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tool set to "ask me" on the Tools page asks in the chat', async () => {
  await resetModel(); // nothing an earlier test left queued answers this one's turns
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await page.getByLabel('Server', { exact: true }).selectOption('everything');
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: 'get-sum', exact: true }).click();
  const policy = page.getByLabel('When the model calls it');
  assert.equal(await policy.inputValue(), '', 'read-only get-sum starts at the default');
  assert.match(await policy.locator('option[value=""]').innerText(), /run it/);
  await policy.selectOption('ask');

  await page.goto(`${env('E2E_URL')}/#/chat`);
  await page.waitForFunction(() => typeof window.go?.gui?.ChatPage?.Chats === 'function');
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(
    { toolCalls: [{ id: 'call_s', name: 'everything__get-sum', arguments: '{"a":2,"b":3}' }] },
    { text: 'It is 5.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Add 2 and 3');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  await page.getByText('It is 5.').waitFor();

  // Back to the default: it runs without asking again.
  await page.goto(`${env('E2E_URL')}/#/tools`);
  await page.getByLabel('Server', { exact: true }).selectOption('everything');
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: 'get-sum', exact: true }).click();
  await page.getByLabel('When the model calls it').selectOption('');
  assert.deepEqual(errors, []);
  await page.close();
});
