// The chat follows the run (#46): after Allow on an approval card the answer
// that arrives is on screen at 720 px; scrolled up, a "new ↓" pill says more
// came and takes the user down; Stop takes effect at once while a fast model
// streams (streamed text is folded in once a frame, so it cannot starve input).
// Screenshots: chatpolish-*-<width>.png at 720, 1280 and 1920 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, modelRequests, openApp, resetModel, scriptModel as script, screenshot, seedChat, untilInPage } from '../lib.mjs';

let browser, shared;
before(async () => { browser = await launch(); });
after(async () => {
  await shared?.page.close();
  await browser?.close();
});

/** sharedApp is the one page the tests run in, each in a new chat of its own (opening a page costs seconds). */
async function sharedApp() {
  shared ??= await openApp(browser, { hash: '#/chat' });
  return shared;
}

const WIDTHS = [720, 1280, 1920];
const para = (n, word) => Array.from({ length: n }, (_, i) => `${word} paragraph ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(6)}`).join('\n\n');

/** atEnd says whether the messages list shows its end (the last message's bottom is inside it). */
function atEnd(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.messages');
    const last = [...document.querySelectorAll('.messages [data-mid]')].pop();
    if (!el || !last) return false;
    return last.getBoundingClientRect().bottom <= el.getBoundingClientRect().bottom + 2;
  });
}

async function newChat(page, width) {
  if (width < 1000) {
    await page.getByRole('button', { name: 'Menu and chats' }).click();
  }
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor();
  return box;
}

for (const width of WIDTHS) {
  test(`the answer after Allow is on screen at ${width} px`, async () => {
    await resetModel();
    const { page, errors } = await sharedApp();
    await page.setViewportSize({ width, height: width === 720 ? 600 : 800 });
    const box = await newChat(page, width);
    // A first answer long enough to fill the view.
    await script({ text: para(8, 'Opening') });
    await box.fill('Tell me a lot');
    await box.press('Enter');
    await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).waitFor();
    // Then a tool call that asks first, and a long answer after it.
    await script(
      { toolCalls: [{ id: 'call_f', name: 'workspace__execute_shell', arguments: '{"command":"echo follow-me"}' }] },
      { text: `${para(6, 'Closing')}\n\nTHE LAST LINE OF THE ANSWER`, chunkSize: 40, delay: '5ms' },
    );
    await box.fill('Now run a command');
    await box.press('Enter');
    const card = page.getByTestId('approval-card');
    await card.waitFor();
    await card.getByRole('button', { name: 'Allow once' }).click();
    const end = page.getByText('THE LAST LINE OF THE ANSWER');
    await end.waitFor();
    await page.locator('[data-testid="message-assistant"][data-status="complete"]').last().waitFor();
    // The stored message re-renders with its usage line and actions a frame or more after the
    // stream ends (later on a loaded machine): the list must follow that too.
    // The answer's last line must be on screen. (Known gap, see #46's note: the usage line and
    // actions rendered after the stream can still end below the fold on a loaded machine.)
    const followed = await page.waitForFunction(() => {
      const el = document.querySelector('.messages');
      const line = [...document.querySelectorAll('.messages p')].filter((p) => p.textContent.includes('THE LAST LINE OF THE ANSWER')).pop();
      return !!el && !!line && line.getBoundingClientRect().bottom <= el.getBoundingClientRect().bottom + 2;
    }, null, { timeout: 5_000 }).then(() => true, () => false);
    await screenshot(page, `chatpolish-follow-${width}`);
    assert.ok(followed, 'the end of the answer is on screen without scrolling');
    assert.deepEqual(errors, []);
  });
}

test('scrolled up, a "new ↓" pill says the answer goes on and takes you down', async () => {
  await resetModel();
  const { page, errors } = await sharedApp();
  await page.setViewportSize({ width: 720, height: 600 });
  const box = await newChat(page, 720);
  await script({ text: para(8, 'First') });
  await box.fill('Fill the view');
  await box.press('Enter');
  await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).waitFor();
  // A slow answer: the user scrolls up while it streams.
  await script({ text: para(40, 'Slow'), chunkSize: 30, delay: '60ms' });
  await box.fill('Keep going');
  await box.press('Enter');
  await page.getByText('Slow paragraph 1:').waitFor();
  const pill = page.getByRole('button', { name: /new/i }).and(page.locator('.new-below'));
  assert.equal(await pill.count(), 0, 'no pill while following');
  await page.locator('.messages').hover();
  await page.mouse.wheel(0, -2000);
  await pill.waitFor();
  assert.equal(await atEnd(page), false);
  await screenshot(page, 'chatpolish-pill-720');
  await pill.click();
  await pill.waitFor({ state: 'detached' });
  await page.waitForFunction(() => {
    const el = document.querySelector('.messages');
    return el && el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  });
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByText('Stopped.').waitFor();
  assert.deepEqual(errors, []);
});

test('Stop takes effect at once while a fast model streams', async () => {
  await resetModel();
  const { page, errors } = await sharedApp();
  await page.setViewportSize({ width: 1200, height: 800 }); // openApp's size (the page is shared)
  const box = await newChat(page, 1200);
  // About 12 000 small deltas over ten seconds or more: each one rendered on its own would keep the
  // page busy long after the model finished, and a Stop clicked meanwhile would come too late.
  const text = `${'fast stream words here, '.repeat(2500)}END-OF-STREAM`;
  await script({ text, chunkSize: 5, delay: '1ms' });
  await box.fill('Go fast');
  await box.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await answer.getByText(/fast stream words/).first().waitFor();
  // Let a good part of it stream in, then stop.
  await page.waitForFunction(() => ([...document.querySelectorAll('[data-testid="message-assistant"]')].pop()?.textContent?.length ?? 0) > 3000);
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByText('Stopped.').waitFor({ timeout: 10_000 });
  const stored = await answer.getAttribute('data-status');
  assert.equal(stored, 'cancelled', 'the answer stopped before the stream ended');
  assert.equal(await answer.getByText('END-OF-STREAM').count(), 0, 'the rest was never shown');
  await screenshot(page, 'chatpolish-stopped-1280');
  assert.deepEqual(errors, []);
});

/** inView says whether the message holding text is inside the message list's viewport (and, with mark, marked as a search hit). */
function inView(page, text, mark = false) {
  return page.evaluate(({ text, mark }) => {
    const el = document.querySelector('[aria-label="Messages"]');
    const a = el && [...el.querySelectorAll('article.message')].find((x) => x.textContent.includes(text));
    if (!a || (mark && !a.classList.contains('found'))) return false;
    const r = a.getBoundingClientRect(), box = el.getBoundingClientRect();
    return r.top >= box.top - 1 && r.top < box.bottom;
  }, { text, mark });
}

test('a search hit opens its chat at the message, marked; ↓ goes back to the end', async () => {
  seedChat('Searchable chat', 200);
  const { page, errors } = await openApp(browser, { hash: '#/chat' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel('Search chats').fill('Message 57 of Searchable chat');
  const hits = page.getByRole('list', { name: 'Search results' });
  await hits.getByRole('button', { name: /Searchable chat/ }).first().click();
  // The hit is in view and marked for a moment; the chat's end is not what shows.
  await page.waitForFunction(({ text }) => {
    const el = document.querySelector('[aria-label="Messages"]');
    const a = el && [...el.querySelectorAll('article.message.found')].find((x) => x.textContent.includes(text));
    if (!a) return false;
    const r = a.getBoundingClientRect(), box = el.getBoundingClientRect();
    return r.top >= box.top - 1 && r.top < box.bottom;
  }, { text: 'Message 57 of Searchable chat:' }, { polling: 'raf', timeout: 10_000 });
  await screenshot(page, 'chatpolish-search-jump-1280');
  assert.equal(await inView(page, 'Message 200 of Searchable chat:'), false, 'opened at the hit, not at the end');
  // Settled (the rows around it measured), it is still in view.
  await page.waitForFunction(() => !document.querySelector('[aria-label="Messages"]')?.dataset.pinned);
  assert.ok(await inView(page, 'Message 57 of Searchable chat:'), 'the hit stays in view');
  // More than a screen from the end: the round ↓ takes the user there.
  await page.getByRole('button', { name: 'Jump to the latest message' }).click();
  await untilInPage(page, () => {
    const el = document.querySelector('[aria-label="Messages"]');
    const a = el && [...el.querySelectorAll('article.message')].find((x) => x.textContent.includes('Message 200 of Searchable chat:'));
    const r = a?.getBoundingClientRect(), box = el?.getBoundingClientRect();
    return !!a && r.bottom <= box.bottom + 2 && r.bottom > box.top;
  }, null, { what: 'the last message in view' });
  await page.getByRole('button', { name: 'Jump to the latest message' }).waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('New chat goes on with the model in use; on a chat still empty it makes no other', async () => {
  await resetModel();
  const { page, errors } = await sharedApp();
  await page.setViewportSize({ width: 1280, height: 800 });
  const box = await newChat(page, 1280);
  await script({ text: 'A first answer.' });
  await box.fill('Hello');
  await box.press('Enter');
  await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).waitFor();
  // The model in use changes in the header…
  const model = page.getByRole('combobox', { name: 'Model' });
  await model.fill('picked-model');
  await model.press('Enter');
  const count = () => page.evaluate(async () => (await window.go.gui.ChatPage.Chats(1000, 0)).length);
  const before = await count();
  // …and the next chat has it, not the default provider's model.
  await page.getByRole('button', { name: 'New chat' }).click();
  await untilInPage(page, (n) => window.go.gui.ChatPage.Chats(1000, 0).then((c) => c.length === n), before + 1, { what: 'the new chat' });
  await page.locator('nav[aria-label="Chats"] button[aria-current="true"]', { hasText: /^Untitled chat$/ }).waitFor();
  await untilInPage(page, () => document.querySelector('input[list="chat-models"]')?.value === 'picked-model', null, { what: 'the new chat on picked-model' });
  // New chat again on this empty chat: no other "Untitled chat", the cursor in its message box.
  await page.getByLabel('Search chats').focus();
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
  assert.equal(await count(), before + 1);
  assert.equal(await page.locator('nav[aria-label="Chats"] li > button', { hasText: /^Untitled chat$/ }).count(), 1);
  // The new chat's turn goes to the model picked.
  await resetModel();
  await script({ text: 'From the picked model.' });
  await box.fill('Which model?');
  await box.press('Enter');
  await page.getByText('From the picked model.').waitFor();
  assert.equal((await modelRequests()).at(-1).model, 'picked-model');
  assert.deepEqual(errors, []);
});
