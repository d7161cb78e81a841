// Messages where the person is looking (#46): Choose a GGUF file…'s error
// beside its button, a failed model download in one sentence with Retry, a
// mirror and Choose a GGUF file… beside it; Retry says that the tool cards
// go and what the tools did stays; Compact now says the user asked; the
// Markdown export keeps a stopped answer's text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, resetModel, screenshot, scriptModel as script, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function shots(page, name, target) {
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await target?.scrollIntoViewIfNeeded();
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('Settings: a file that is not a GGUF says so beside Choose; a failed download is one sentence with its ways on', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  await page.setViewportSize({ width: 720, height: 600 });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  await page.waitForFunction(() => typeof window.go?.gui?.SettingsPage?.AddLocalModelFile === 'function');
  // The system dialog cannot be driven here: Choose adds a file that is not a model, as a person picking it would.
  await page.evaluate(() => {
    const s = window.go.gui.SettingsPage;
    s.ChooseLocalModelFile = () => s.AddLocalModelFile('/etc/hostname');
  });
  const choose = page.getByRole('button', { name: 'Choose a GGUF file…' });
  await choose.scrollIntoViewIfNeeded();
  await choose.click();
  const chooseErr = page.getByRole('alert', { name: 'Choose a GGUF file' });
  await chooseErr.waitFor();
  assert.match(await chooseErr.locator('.error-sentence').innerText(), /^hostname is not a GGUF model file llama\.cpp can run: choose a \.gguf file/);
  const [b, e, vh] = await Promise.all([choose.boundingBox(), chooseErr.boundingBox(), page.evaluate(() => window.innerHeight)]);
  assert.ok(e.y >= b.y && e.y - (b.y + b.height) < 60, `the error is just below its button (button ends at ${b.y + b.height}, error at ${e.y})`);
  assert.ok(e.y + e.height <= vh, 'the error is on screen');
  await shots(page, 'polishmsg-gguf', chooseErr);

  // A download from an address that cannot be found.
  const url = page.getByRole('form', { name: 'Model download URL' });
  const old = await url.getByRole('textbox').inputValue();
  await url.getByRole('textbox').fill('https://mirror.invalid/models/');
  await url.getByRole('button', { name: 'Save download URL' }).click();
  await url.getByText('Saved').waitFor();
  await page.getByRole('button', { name: /^Download / }).first().click();
  const failed = page.locator('.local-model-failed');
  await failed.waitFor({ timeout: 60_000 });
  const sentence = await failed.locator('.error-sentence').innerText();
  assert.match(sentence, /^Could not download .+: mirror\.invalid cannot be (found|looked up \(DNS failed\))\.$/);
  const shown = await failed.innerText();
  assert.doesNotMatch(shown, /dial tcp|Settings →/, 'the technical text waits behind a disclosure; no pointer to the page we are on');
  assert.equal((await failed.textContent()).split('https://mirror.invalid/models/').length - 1 <= 2, true, 'the URL is not repeated');
  await failed.getByRole('button', { name: 'Retry' }).waitFor();
  await failed.getByRole('button', { name: 'Choose a GGUF file…' }).waitFor();
  await failed.getByRole('form', { name: 'Model download URL' }).waitFor();
  await shots(page, 'polishmsg-download-failed', failed);

  // Back as it was.
  const form = failed.getByRole('form', { name: 'Model download URL' });
  await form.getByRole('textbox').fill(old);
  await form.getByRole('button', { name: 'Save download URL' }).click();
  assert.deepEqual(errors, []);
  await page.close();
});

test('Retry says its tool cards go and what the tools did stays; Compact now says the user asked', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await script(
    { toolCalls: [{ id: 'call_r', name: 'everything__echo', arguments: '{"message":"retry me"}' }] },
    { text: 'The echo tool answered.' },
  );
  await box.fill('Echo something');
  await box.press('Enter');
  await page.getByText('The echo tool answered.').waitFor();
  await page.locator('[data-testid="message-assistant"][data-status="complete"]').last().waitFor();

  await script({ text: 'A new answer, no tools.' });
  const last = page.getByTestId('message-assistant').last();
  await last.hover();
  await last.getByRole('button', { name: /^Retry/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Replace this answer?' });
  await confirm.waitFor();
  assert.match(await confirm.innerText(), /tool card goes too, but what the tool did stays done: a file a tool wrote stays written/);
  await shots(page, 'polishmsg-retry-confirm', confirm);
  await confirm.getByRole('button', { name: 'Replace and retry' }).click();
  await page.getByText('A new answer, no tools.').waitFor();
  await page.locator('[data-testid="message-assistant"][data-status="complete"]').last().waitFor();
  assert.equal(await page.getByTestId('tool-card').count(), 0, 'the tool card went with the answer');

  // Compact now says the user asked.
  await script({ when: 'Write the summary now.', text: '## Asked\nEcho something.' });
  await page.getByRole('button', { name: /— context / }).click();
  await page.getByRole('button', { name: 'Compact now' }).click();
  const summary = page.locator('article.message.summary').last();
  await summary.waitFor({ timeout: 30_000 });
  await summary.getByText(/^You asked to compact the chat/).waitFor();
  await page.keyboard.press('Escape');
  await shots(page, 'polishmsg-compact-asked', summary);

  assert.deepEqual(errors, []);
  await page.close();
});
