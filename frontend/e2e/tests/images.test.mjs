// Images and audio from tools reach the model: Settings → Models sets
// whether the Fake provider's models take images (and audio); with it on,
// the image the real server-everything's get-tiny-image returns is in the
// next model request as an image part after the tool message; back on
// automatic (a text-only model name) only its description goes. Audio the
// same way, from get-tone of mcpmanager/testdata/testserver (built here and
// added to config.json: server-everything returns no audio).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, modelRequests, resetModel, screenshot, scriptModel as script, sharedApp, testServer, untilInPage } from '../lib.mjs';

// The audio server is added the way a user's editor would: config.json, which the window follows.
const configPath = () => path.join(env('E2E_DATA_DIR'), 'config.json');
function editServers(fn) {
  const cfg = JSON.parse(readFileSync(configPath(), 'utf8'));
  fn(cfg.mcpServers);
  writeFileSync(configPath(), JSON.stringify(cfg, null, 2));
}

let browser;
let tmp;
before(async () => {
  browser = await launch();
  tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-audio-e2e-'));
  // The testserver serves the mode it is named after (audioserver).
  const bin = path.join(tmp, 'audioserver');
  testServer(bin);
  editServers((s) => { s.audio = { command: bin }; });
});
after(async () => {
  editServers((s) => { delete s.audio; });
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// The providers table's columns: Name, Kind, Base URL, Default model, Key, Images, Audio.
const IMAGES_COL = 5;
const AUDIO_COL = 6;

/** Set the Fake provider's select (label) in Settings and check the table's column says so. */
async function setMedia(page, label, col, option, shown) {
  await page.goto(page.url().replace(/#.*$/, '#/settings'));
  const row = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: 'Fake' });
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Provider' });
  await form.getByLabel(label).selectOption({ label: option });
  await form.getByRole('button', { name: 'Save provider' }).click();
  await form.waitFor({ state: 'detached' });
  await row.getByRole('cell').nth(col).and(row.getByRole('cell', { name: shown, exact: true })).waitFor();
}
const setImages = (page, option, shown) => setMedia(page, 'Images from tools', IMAGES_COL, option, shown);
const setAudio = (page, option, shown) => setMedia(page, 'Audio from tools', AUDIO_COL, option, shown);

async function askForTheImage(page, prompt, answer) {
  return askForTool(page, 'everything__get-tiny-image', prompt, answer);
}

/** askForTool runs a chat turn whose scripted model calls tool, and returns the last model request's messages. */
async function askForTool(page, tool, prompt, answer) {
  await page.goto(page.url().replace(/#.*$/, '#/chat'));
  await page.getByRole('button', { name: 'New chat' }).click();
  // Type only once the new chat is the current one: typed earlier, the
  // prompt went to the previous chat while the new one was being created.
  await page.locator('button[aria-current="true"]', { hasText: /^Untitled chat$/ }).waitFor();
  await page.getByText(/^Ask anything\. The model can use the tools/).waitFor();
  await script(
    { toolCalls: [{ id: 'call_media', name: tool, arguments: '{}' }] },
    { text: answer },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(prompt);
  await box.press('Enter');
  try {
    await page.getByText(answer).waitFor({ timeout: 30_000 });
  } catch (e) {
    const shot = await screenshot(page, `media-turn-stuck-${tool}`);
    throw new Error(`${e.message}\nthe window: ${shot}; model requests: ${JSON.stringify(await modelRequests()).slice(-2000)}`);
  }
  const reqs = await modelRequests();
  return reqs[reqs.length - 1].messages;
}

test('a tool\'s image goes to the model as an image when the provider takes images', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await untilInPage(page, async () => (await window.go.gui.ToolsPage.Tools()).tools.some((t) => t.name === 'everything__get-tiny-image'), null, { timeout: 60_000, what: 'the tool everything__get-tiny-image' });
  const direct = await page.evaluate(() => window.go.gui.ToolsPage.CallTool('everything__get-tiny-image', '{}'));
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

test('a tool\'s audio goes to the model as input_audio when the provider takes audio', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await untilInPage(page, async () => (await window.go.gui.ToolsPage.Tools()).tools.some((t) => t.name === 'audio__get-tone'), null, { timeout: 60_000, what: 'the tool audio__get-tone' });
  await page.evaluate(() => window.go.gui.SettingsPage.SetToolPolicy('audio__get-tone', 'allow'));
  const direct = await page.evaluate(() => window.go.gui.ToolsPage.CallTool('audio__get-tone', '{}'));
  const tone = JSON.stringify(direct).match(/"data":"([A-Za-z0-9+/=]{100,})"/)[1];
  assert.ok(tone.startsWith('UklGR'), 'get-tone returns a RIFF/WAVE file');

  // The select is for OpenAI-compatible providers only (the Fake one is).
  await setAudio(page, 'Sent as audio', 'sent');
  const row = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: 'Fake' });
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Provider' });
  const select = form.getByLabel('Audio from tools');
  assert.equal(await select.inputValue(), 'on');
  await select.focus();
  await screenshot(page, 'provider-audio-setting');
  await form.getByRole('combobox', { name: /^Kind/ }).selectOption({ label: 'Anthropic' });
  assert.equal(await form.getByLabel('Audio from tools').count(), 0, 'no audio select for Anthropic');
  await form.getByRole('button', { name: 'Cancel' }).click();

  let msgs = await askForTool(page, 'audio__get-tone', 'Play me a tone', 'A 440 Hz beep.');
  const tool = msgs.findIndex((m) => m.role === 'tool');
  assert.ok(tool >= 0, JSON.stringify(msgs));
  assert.equal(msgs[tool].content, 'A 440 Hz tone, 0.1 s.\n[audio 1: wav, attached]');
  const next = msgs[tool + 1];
  assert.equal(next.role, 'user');
  assert.ok(next.content.some((p) => p.type === 'text' && p.text === 'Audio returned by audio__get-tone (call call_media):'), JSON.stringify(next));
  assert.ok(next.content.some((p) => p.type === 'input_audio' && p.input_audio.format === 'wav' && p.input_audio.data === tone), JSON.stringify(next));
  await screenshot(page, 'tool-audio-to-model');

  await setAudio(page, 'Automatic (by model name)', 'described (auto)');
  msgs = await askForTool(page, 'audio__get-tone', 'Again, please', 'Described this time.');
  const body = JSON.stringify(msgs);
  assert.ok(!body.includes(tone) && !body.includes('input_audio'), 'a model named fake-model gets no audio automatically');
  assert.match(body, /\[audio audio\/wav, \d+ bytes base64\]/);
  await page.evaluate(() => window.go.gui.SettingsPage.SetToolPolicy('audio__get-tone', ''));
  assert.deepEqual(errors, []);
  await page.close();
});
