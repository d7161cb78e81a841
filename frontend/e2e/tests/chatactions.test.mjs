// Chat actions against the real app and the scripted fake model: copy an
// answer as Markdown, retry the last answer, edit an earlier message and
// resend it (after a confirmation), a provider error in plain words with
// Retry, and ↑ in the empty composer to edit the last message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, modelRequests, resetModel, screenshot, scriptModel as script, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function lastRequest() {
  const all = await modelRequests();
  return JSON.stringify(all[all.length - 1]);
}

/** shoot saves the page at 1280 and 720 px wide, then goes back to 1280. */
async function shoot(page, name) {
  for (const width of [720, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await screenshot(page, `${name}-${width}`);
  }
}

test('retry, edit and resend, copy, and a provider error with Retry', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  const answers = page.getByTestId('message-assistant');
  const questions = page.getByTestId('message-user');
  const done = page.locator('[data-testid="message-assistant"][data-status="complete"]');

  // Two exchanges.
  await script({ text: 'Apples are **crisp**:\n\n- red\n- green' });
  await box.fill('Tell me about apples');
  await box.press('Enter');
  await done.first().waitFor();
  await script({ text: 'Pears are soft, the first answer.' });
  await box.fill('And pears?');
  await box.press('Enter');
  await page.getByText('Pears are soft, the first answer.').waitFor();
  await done.nth(1).waitFor();

  // Copy puts the raw Markdown on the clipboard.
  await answers.first().hover();
  await answers.first().getByRole('button', { name: 'Copy the answer as Markdown' }).click();
  await answers.first().getByText('Copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'Apples are **crisp**:\n\n- red\n- green');

  // Retry: a new answer replaces the last one; the model got the history up to the question.
  await script({ text: 'Pears are juicy, the retried answer.' });
  const before = (await modelRequests()).length;
  await answers.last().getByRole('button', { name: /^Retry/ }).click();
  await page.getByText('Pears are juicy, the retried answer.').waitFor();
  await page.getByText('Pears are soft, the first answer.').waitFor({ state: 'detached' });
  assert.equal((await modelRequests()).length, before + 1);
  const retried = await lastRequest();
  assert.match(retried, /And pears\?/);
  assert.doesNotMatch(retried, /the first answer/, 'the replaced answer is not sent to the model');
  assert.equal(await answers.count(), 2);
  await done.nth(1).waitFor();
  await shoot(page, 'chatactions-retried');

  // Edit the first message: a confirmation, then the later messages are replaced.
  await script({ text: 'Plums are sweet.' });
  await questions.first().hover();
  await questions.first().getByRole('button', { name: 'Edit and resend this message' }).click();
  const edit = page.getByRole('textbox', { name: 'Edit message' });
  await edit.fill('Tell me about plums');
  await page.getByRole('button', { name: 'Resend', exact: true }).click();
  const ask = page.getByRole('alertdialog', { name: 'Replace the later messages?' });
  await ask.waitFor();
  assert.match(await ask.textContent(), /replaces the 3 later messages/);
  await shoot(page, 'chatactions-confirm');
  await ask.getByRole('button', { name: 'Replace and resend' }).click();
  await page.getByText('Plums are sweet.').waitFor();
  await page.getByText('And pears?').waitFor({ state: 'detached' });
  await done.first().waitFor();
  assert.equal(await questions.count(), 1);
  assert.equal(await answers.count(), 1);
  assert.match(await questions.first().textContent(), /Tell me about plums/);
  const edited = await lastRequest();
  assert.match(edited, /Tell me about plums/);
  assert.doesNotMatch(edited, /apples|pears/i, 'the edited step sends only the edited message');

  // A provider error: plain words and what to do, the detail behind a disclosure, and Retry.
  await script({ status: 401, error: 'Incorrect API key provided: sk-e2e-nope' });
  await box.fill('Hello again');
  await box.press('Enter');
  const alert = answers.last().getByRole('alert');
  await alert.getByText(/refused the API key\. Check the key in Settings → Models\./).waitFor();
  const details = alert.locator('details');
  assert.equal(await details.evaluate((d) => d.open), false, 'the detail is behind a disclosure');
  await details.locator('summary').click();
  assert.match(await details.locator('pre').textContent(), /HTTP 401/);
  await shoot(page, 'chatactions-error');
  await script({ text: 'Now it works.' });
  await alert.getByRole('button', { name: /Retry/ }).click();
  await page.getByText('Now it works.').waitFor();
  assert.equal(await page.getByRole('alert').count(), 0);
  assert.equal(await answers.count(), 2);

  // ↑ in the empty composer edits the last message; Esc cancels and the composer has focus again.
  await box.click();
  await box.press('ArrowUp');
  const again = page.getByRole('textbox', { name: 'Edit message' });
  await again.waitFor();
  assert.equal(await again.inputValue(), 'Hello again');
  await again.press('Escape');
  await again.waitFor({ state: 'detached' });
  assert.equal(await box.evaluate((el) => el === document.activeElement), true);

  // The composer uses the UI font.
  const fonts = await page.evaluate(() => [getComputedStyle(document.querySelector('textarea[aria-label="Message"]')).fontFamily, getComputedStyle(document.body).fontFamily]);
  assert.equal(fonts[0], fonts[1]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Stop is a button beside Send while an answer streams', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await script({ text: 'slow words '.repeat(60), chunkSize: 4, delay: '150ms' });
  await box.fill('Talk slowly');
  await box.press('Enter');
  const stop = page.getByRole('button', { name: 'Stop the answer' });
  await stop.waitFor();
  await page.getByTestId('message-assistant').getByText(/slow words/).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled(), true);
  await shoot(page, 'chatactions-streaming');
  await stop.click();
  await page.getByText('Stopped.').waitFor();
  await stop.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
