// URL elicitation and sampling with tools in the window, against a test
// server of ours (the testserver in mode urlserver): a tool call failing with
// -32042 shows the server's page (site and full address) in a card; Open
// hands it to the system browser only on click, and once the server says
// the user finished (notifications/elicitation/complete) the card goes and
// the call runs again; a URL request declined from the card tells the
// server so; a sampling request offering tools lists them in its approval.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, modelRequests, resetModel, screenshot, scriptModel as script, sharedApp, testServer, untilInPage } from '../lib.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-url-'));
let browser;
before(async () => {
  browser = await launch();
  const bin = path.join(tmp, 'urlserver');
  // The testserver serves the mode it is named after (urlserver).
  testServer(bin);
  execFileSync(env('SWITCHBOARD_BIN'), ['--data-dir', env('E2E_DATA_DIR'), 'servers', 'add', 'links', '--', bin], { encoding: 'utf8' });
});
after(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Open the chat page with the system browser replaced by a recorder. */
async function chatPage() {
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.waitForFunction(() => typeof window.runtime?.BrowserOpenURL === 'function');
  await page.evaluate(() => {
    window.__opened = [];
    window.runtime.BrowserOpenURL = (u) => window.__opened.push(u);
  });
  await untilInPage(page, async () => (await window.go.gui.ToolsPage.Tools()).tools.some((t) => t.name === 'links__needs_link'), null, { timeout: 60_000, what: 'the tool links__needs_link' });
  await page.getByRole('button', { name: 'New chat' }).click();
  return { page, errors, box: page.getByRole('textbox', { name: 'Message' }) };
}

const lastToolResult = async () => {
  const reqs = await modelRequests();
  const msgs = reqs[reqs.length - 1].messages;
  return msgs.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).pop();
};

test('a -32042 tool call shows the page, opens it on click and runs again when the server confirms', async () => {
  await resetModel();
  const { page, errors, box } = await chatPage();
  await script(
    { toolCalls: [{ id: 'call_l1', name: 'links__needs_link', arguments: '{}' }] },
    { text: 'Your files are linked.' },
  );
  await box.fill('Link my files');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();

  const card = page.getByTestId('elicit-url');
  await card.waitFor();
  assert.match(await card.innerText(), /links asks you to open a page: Authorize Example to read your files\./);
  assert.equal(await card.getByTestId('elicit-domain').innerText(), '127.0.0.1');
  const url = await card.getByTestId('elicit-url-full').innerText();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/connect\?id=err-1$/);
  assert.equal(await card.locator('a').count(), 0, 'the address is text, not a link');
  assert.deepEqual(await page.evaluate(() => window.__opened), [], 'nothing is opened before the click');
  await card.getByRole('button', { name: 'Done' }).waitFor();
  await screenshot(page, 'url-elicitation-card');

  await card.getByRole('button', { name: 'Open 127.0.0.1' }).click();
  assert.deepEqual(await page.evaluate(() => window.__opened), [url]);
  await card.getByRole('status').filter({ hasText: 'Opened in your browser' }).waitFor();
  await screenshot(page, 'url-elicitation-opened');

  // The user finishes in the browser: the server sends notifications/elicitation/complete.
  const res = await fetch(url);
  assert.equal(res.status, 200);
  await card.waitFor({ state: 'detached', timeout: 15_000 });
  await page.getByText('Your files are linked.').waitFor();
  assert.equal(await lastToolResult(), 'linked: visited=true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a URL request is declined from its card, and opened from the next one', async () => {
  await resetModel();
  const { page, errors, box } = await chatPage();
  await script(
    { toolCalls: [{ id: 'call_o1', name: 'links__open_link', arguments: '{}' }] },
    { text: 'You declined.' },
    { toolCalls: [{ id: 'call_o2', name: 'links__open_link', arguments: '{}' }] },
    { text: 'You opened it.' },
  );
  await box.fill('Connect my account');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow for this chat' }).click();
  const card = page.getByTestId('elicit-url');
  await card.waitFor();
  assert.match(await card.innerText(), /Connect your Example account to continue\./);
  assert.equal(await card.getByRole('button', { name: 'Done' }).count(), 0, 'Done is only for a waiting tool call');
  await card.getByRole('button', { name: 'Decline' }).click();
  await page.getByText('You declined.').waitFor();
  assert.equal(await lastToolResult(), 'action=decline');
  assert.deepEqual(await page.evaluate(() => window.__opened), []);

  await box.fill('Try again');
  await box.press('Enter');
  await card.waitFor();
  await card.getByRole('button', { name: /^Open / }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('You opened it.').waitFor();
  assert.equal(await lastToolResult(), 'action=accept');
  assert.equal((await page.evaluate(() => window.__opened)).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a look-alike link shows its host as xn--, its registered domain in bold, and how it was written', async () => {
  await resetModel();
  const { page, errors, box } = await chatPage();
  await script(
    { toolCalls: [{ id: 'call_l1', name: 'links__open_lookalike', arguments: '{}' }] },
    { text: 'You declined the look-alike.' },
  );
  await box.fill('Sign me in');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  const card = page.getByTestId('elicit-url');
  await card.waitFor();
  const site = card.getByTestId('elicit-domain');
  assert.equal(await site.innerText(), 'login.xn--pple-43d.com.evil.example');
  assert.equal(await site.locator('strong').innerText(), 'evil.example');
  assert.match(await card.getByTestId('elicit-written').innerText(), /Written as login\.\u0430pple\.com\.evil\.example: letters from another alphabet/);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().left)}-${Math.round(el.getBoundingClientRect().right)}`).slice(0, 8));
    assert.deepEqual(wide, [], `nothing sticks out of the window at ${width} px`);
    await screenshot(page, `url-elicitation-lookalike-${width}`);
  }
  await card.getByRole('button', { name: 'Decline' }).click();
  await page.getByText('You declined the look-alike.').waitFor();
  assert.deepEqual(await page.evaluate(() => window.__opened), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sampling request offering tools lists them, and the model\'s call goes back to the server', async () => {
  await resetModel();
  const { page, errors, box } = await chatPage();
  await script(
    { toolCalls: [{ id: 'call_s1', name: 'links__sample_with_tools', arguments: '{}' }] },
    { toolCalls: [{ id: 'w1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }, // the sampling request's answer
    { text: 'The server got a tool call.' },
  );
  await box.fill('Ask the server to sample');
  await box.press('Enter');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  const sampling = page.getByRole('alertdialog', { name: 'Approve sampling request' });
  await sampling.waitFor();
  const tools = sampling.getByRole('list', { name: 'Tools offered to the model' });
  assert.equal((await tools.innerText()).trim(), 'get_weather — Current weather of a city.');
  await screenshot(page, 'sampling-with-tools-approval');
  await sampling.getByRole('button', { name: 'Allow once' }).click();
  await page.getByText('The server got a tool call.').waitFor();
  const result = JSON.parse(await lastToolResult());
  assert.equal(result.stopReason, 'toolUse');
  assert.deepEqual(result.content.find((c) => c.type === 'tool_use'), { type: 'tool_use', id: 'w1', name: 'get_weather', input: { city: 'Paris' } });
  const samplingReq = (await modelRequests())[1];
  assert.equal(samplingReq.tool_choice, 'required');
  assert.equal(samplingReq.tools[0].function.name, 'get_weather');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sampling request the settings refuse shows why in the chat, and the server is told', async () => {
  await resetModel();
  const { page, errors, box } = await chatPage();
  await page.evaluate(() => window.go.gui.SettingsPage.SetSampling('deny', 5, 10, false));
  try {
    await script(
      { toolCalls: [{ id: 'call_s2', name: 'links__sample_with_tools', arguments: '{}' }] },
      { text: 'The server could not use the model.' },
    );
    await box.fill('Ask the server to sample again');
    await box.press('Enter');
    await page.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
    const notice = page.getByRole('status', { name: 'Sampling request refused' });
    await notice.waitFor();
    assert.match(await notice.innerText(), /Refused a request from links to use the model: sampling is turned off in Settings → Chat → Sampling/);
    await page.getByText('The server could not use the model.').waitFor();
    assert.match(await lastToolResult(), /switchboard refused the request to use the model: sampling is turned off/);
    assert.equal((await modelRequests()).length, 2, 'no sampling request reached the model');
    assert.equal(await page.getByRole('alertdialog', { name: 'Approve sampling request' }).count(), 0);
    for (const width of [720, 1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      // The navigation slides into its drawer below 1000 px: shoot once it is still.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await screenshot(page, `sampling-refused-notice-${width}`);
    }
    await notice.getByRole('button', { name: 'Dismiss: Sampling request refused' }).click();
    await notice.waitFor({ state: 'detached' });
  } finally {
    await page.evaluate(() => window.go.gui.SettingsPage.SetSampling('ask', 5, 10, false));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tool run from the Tools page shows the server\'s page card there', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Server', { exact: true }).selectOption('links');
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: 'open_link', exact: true }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  const card = page.getByTestId('elicit-url');
  await card.waitFor();
  assert.equal(await card.getByTestId('elicit-domain').innerText(), '127.0.0.1');
  await card.getByRole('button', { name: 'Decline' }).click();
  await page.getByText('action=decline').waitFor();
  await card.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
