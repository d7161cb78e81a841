// Images from tools reach the model: Settings → Providers sets whether the
// Fake provider's models take images; with it on, the image the real
// server-everything's get-tiny-image returns is in the next model request
// as an image part after the tool message; back on automatic (a text-only
// model name) only its description goes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, modelRequests, openApp, resetModel, screenshot, scriptModel as script, untilInPage } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Set the Fake provider's "Images from tools" in Settings and check the table says so. */
async function setImages(page, option, shown) {
  await page.goto(page.url().replace(/#.*$/, '#/settings'));
  const row = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: 'Fake' });
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Provider' });
  await form.getByLabel('Images from tools').selectOption({ label: option });
  await form.getByRole('button', { name: 'Save provider' }).click();
  await form.waitFor({ state: 'detached' });
  await row.getByRole('cell', { name: shown, exact: true }).waitFor();
}

async function askForTheImage(page, prompt, answer) {
  await page.goto(page.url().replace(/#.*$/, '#/chat'));
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(
    { toolCalls: [{ id: 'call_img', name: 'everything__get-tiny-image', arguments: '{}' }] },
    { text: answer },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(prompt);
  await box.press('Enter');
  await page.getByText(answer).waitFor({ timeout: 30_000 });
  const reqs = await modelRequests();
  return reqs[reqs.length - 1].messages;
}

test('a tool\'s image goes to the model as an image when the provider takes images', async () => {
  await resetModel();
  const { page, errors } = await openApp(browser, { hash: '#/settings' });
  await untilInPage(page, async () => (await window.go.app.ToolsPage.Tools()).tools.some((t) => t.name === 'everything__get-tiny-image'), null, { timeout: 60_000, what: 'the tool everything__get-tiny-image' });
  const direct = await page.evaluate(() => window.go.app.ToolsPage.CallTool('everything__get-tiny-image', '{}'));
  const tiny = JSON.stringify(direct).match(/"data":"([A-Za-z0-9+/=]{100,})"/)[1];

  await setImages(page, 'Sent as images', 'sent');
  await screenshot(page, 'provider-images-setting');
  let msgs = await askForTheImage(page, 'Show me the tiny image', 'A tiny MCP logo.');
  const tool = msgs.findIndex((m) => m.role === 'tool');
  assert.ok(tool >= 0, JSON.stringify(msgs));
  assert.match(msgs[tool].content, /Here's the image you requested/);
  assert.ok(!msgs[tool].content.includes(tiny), 'the tool message carries text only');
  const next = msgs[tool + 1];
  assert.equal(next.role, 'user');
  assert.ok(next.content.some((p) => p.type === 'image_url' && p.image_url.url === `data:image/png;base64,${tiny}`), JSON.stringify(next));
  await screenshot(page, 'tool-image-to-model');

  await setImages(page, 'Automatic (by kind and model)', 'described (auto)');
  msgs = await askForTheImage(page, 'Again, please', 'Described this time.');
  const body = JSON.stringify(msgs);
  assert.ok(!body.includes(tiny), 'a model named fake-model gets no image automatically');
  assert.match(body, /\[image image\/png, \d+ bytes base64\]/);
  assert.deepEqual(errors, []);
  await page.close();
});
