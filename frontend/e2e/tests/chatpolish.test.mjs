// The chat follows the run (#46): after Allow on an approval card the answer
// that arrives is on screen at 720 px; scrolled up, a "new ↓" pill says more
// came and takes the user down; Stop takes effect at once while a fast model
// streams (streamed text is folded in once a frame, so it cannot starve input).
// Screenshots: chatpolish-*-<width>.png at 720, 1280 and 1920 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, resetModel, scriptModel as script, screenshot } from '../lib.mjs';

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
