// Long chats within the model's context window: a fake model of 8,192 tokens (its model list says so,
// and it refuses longer requests with OpenAI's context_length_exceeded) answers 25 turns that each read
// a 6 KB file. The header's meter shows used / window and what takes it; results are capped (the card
// says what the model saw); the earlier messages are summarised into a summary message shown collapsed;
// "Compact now" summarises on demand. No request is ever over the window.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chatControls, env, launch, modelRequests, openApp, resetModel, screenshot, scriptModel, untilInPage } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const WINDOW = 8192;
const TURNS = 25;
const SUMMARY = 'Notes so far: the user keeps asking to read notes.txt, and every read worked. SUMMARY-MARK';

async function setModels(models) {
  const res = await fetch(`${env('E2E_FAKELLM_URL')}/__fake/models`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(models),
  });
  assert.equal(res.status, 200, await res.text());
}

test('a long chat stays within an 8,192-token window: meter, capped results, summaries, Compact now', async () => {
  await resetModel();
  await setModels([{ id: 'fake-model' }, { id: 'small-8k', contextWindow: WINDOW }]);
  const { page, errors } = await openApp(browser, { hash: '#/chat' });

  // A 6 KB file in the workspace, wherever its root is now.
  const root = await page.evaluate(() => window.go.gui.WorkspacePage.WorkspaceInfo().then((w) => w.root));
  let notes = '';
  for (let i = 1; notes.length < 6000; i++) notes += `line ${String(i).padStart(3, '0')}: the quick brown fox jumps over the lazy dog, note ${i}\n`;
  writeFileSync(path.join(root, 'notes.txt'), notes);

  await scriptModel(
    { when: 'Write the summary now.', text: SUMMARY },
    { when: 'line 001:', text: 'Read it.' },
    { when: 'please read notes.txt', toolCalls: [{ name: 'workspace__read_file', arguments: '{"path":"notes.txt"}' }] },
    { when: 'SUMMARY-MARK', text: 'Read it.' },
  );
  const newest = () => window.go.gui.ChatPage.Chats(1, 0).then(([c]) => (c ? c.id : ''));
  const before = await page.evaluate(newest);
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.setViewportSize({ width: 1280, height: 900 });
  // The new chat uses the 8k model (stored as the chat's model, as the header's picker does).
  // "New chat" makes the chat in the background: until it is there, the newest chat is an
  // earlier test's (a CI run set the model on that one).
  const chatId = await untilInPage(
    page,
    (prev) => window.go.gui.ChatPage.Chats(1, 0).then(([c]) => (c && c.id !== prev ? c.id : '')),
    before,
    { what: 'the chat "New chat" makes' },
  );
  await page.evaluate(async (id) => {
    await window.go.gui.ChatPage.SetChatModel(id, 'Fake', 'small-8k');
    // The model reads the file with the tool itself, not in a script: an 8k window would
    // choose code mode by default.
    await window.go.gui.ChatPage.SetChatOptions(id, { toolMode: 'direct' });
  }, chatId);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  const box = page.getByRole('textbox', { name: 'Message' });
  const answers = page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]'));
  for (let i = 1; i <= TURNS; i++) {
    if (i === 2) assert.equal((await modelRequests())[0].model, 'small-8k', 'the chat uses the 8k model');
    await box.fill(`Turn ${i}: please read notes.txt`);
    await box.press('Enter');
    // Answered: after this turn's message, an answer that is complete, and nothing still streaming.
    await page.waitForFunction((mark) => {
      const all = [...document.querySelectorAll('article.message')];
      const at = all.findLastIndex((a) => a.classList.contains('user') && a.textContent.includes(mark));
      return at >= 0 && !document.querySelector('article.message[data-status="streaming"]')
        && all.slice(at + 1).some((a) => a.classList.contains('assistant') && a.dataset.status === 'complete' && a.textContent.includes('Read it.'));
    }, `Turn ${i}: please`, { timeout: 30_000 });
  }
  await page.getByText(`Turn ${TURNS}: please read notes.txt`).waitFor();
  await answers.last().getByText('Read it.').waitFor();

  // Every request fit the window; none was refused.
  const reqs = await modelRequests();
  const over = reqs.filter((b) => JSON.stringify(b).length / 4 > WINDOW);
  assert.equal(over.length, 0, `${over.length} requests over the window`);
  assert.equal(await page.locator('[data-testid="message-assistant"][data-status="error"]').count(), 0, 'no answer failed');
  // Kept within the window by summaries or, since results are left out in large steps
  // (#45: the prefix stays stable for prompt caches), by stubs of earlier results.
  assert.ok(reqs.some((b) => JSON.stringify(b).includes('Write the summary now.') || JSON.stringify(b).includes('left out to save context')),
    'the chat was summarised or its earlier results were left out');

  // The meter: used / window, with what takes it.
  const meter = page.getByRole('button', { name: /^\d+% — context .* of 8\.2k tokens$/ });
  await meter.waitFor();
  const used = Number(await page.getByRole('meter', { name: 'Context used' }).getAttribute('aria-valuenow'));
  assert.ok(used > 0 && used <= WINDOW, `meter shows ${used} tokens`);

  // Compact now: a new summary at the end of the chat (the earlier ones are further up, outside the
  // part of the list that is rendered).
  // Synced on the new summary itself, the one the user asked for: the chat
  // holds earlier ones, so "the last summary" is there before Compact now
  // has done anything.
  await page.getByRole('button', { name: /— context / }).click();
  await page.getByRole('button', { name: 'Compact now' }).click();
  const summary = page.locator('article.message.summary').filter({ hasText: 'You asked to compact the chat' }).last();
  await summary.waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: /^\d+% — context .* of 8\.2k tokens$/ }).waitFor({ timeout: 60_000 });

  // The summary message, collapsed; it opens to what the model reads instead.
  await summary.scrollIntoViewIfNeeded();
  await summary.getByText('Earlier messages summarised').waitFor();
  assert.equal(await summary.locator('details').getAttribute('open'), null, 'the summary starts collapsed');
  await summary.getByText('Earlier messages summarised').click();
  await summary.getByText('every read worked').waitFor();

  // The last tool card says the result was capped and what the model saw.
  const card = page.getByTestId('tool-card').last();
  await card.getByText('capped').waitFor();
  const note = card.getByTestId('capped-note');
  assert.match(await note.textContent(), /The model saw lines 1–\d+ of \d+/);

  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, `contextwindow-card-${width}`);
    await chatControls(page);
    await page.keyboard.press('Escape');
    const m = page.getByRole('button', { name: /— context / });
    await m.click();
    const pop = page.getByRole('dialog', { name: 'Context window' });
    await pop.getByText('Tool results').waitFor();
    const box2 = await pop.boundingBox();
    assert.ok(box2 && box2.x >= 0 && box2.x + box2.width <= width, `the meter's popover is on screen at ${width} px`);
    await screenshot(page, `contextwindow-meter-${width}`);
    await page.keyboard.press('Escape');
    await summary.scrollIntoViewIfNeeded();
    await screenshot(page, `contextwindow-summary-${width}`);
  }

  assert.equal(errors.length, 0, errors.join('\n'));
  await resetModel();
});
