// A long chat: 1,000 stored messages open at their end without all being
// loaded or rendered, older pages load as the user scrolls up (the message on
// top staying put), and opening it takes about as long as a 10-message chat.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, resetModel, screenshot, scriptModel, seedChat, untilInPage } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });


/**
 * openTimed clicks the chat titled title in the list and returns the ms until
 * the article holding text is inside the message list's viewport, measured in
 * the page on animation frames.
 */
function openTimed(page, title, text) {
  return page.evaluate(async ({ title, text }) => {
    const btn = [...document.querySelectorAll('nav[aria-label="Chats"] li > button')].find((b) => b.textContent === title);
    if (!btn) throw new Error(`no chat titled ${title}`);
    const t0 = performance.now();
    btn.click();
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const list = document.querySelector('[aria-label="Messages"]');
      const el = list && [...list.querySelectorAll('article.message')].find((a) => a.textContent.includes(text));
      if (el) {
        const r = el.getBoundingClientRect();
        const box = list.getBoundingClientRect();
        if (r.bottom > box.top && r.top < box.bottom && r.height > 0) return performance.now() - t0;
      }
      if (performance.now() - t0 > 30_000) throw new Error(`${text} did not show within 30 s`);
    }
  }, { title, text });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('a 1,000-message chat opens at its end, virtualised, and loads older pages on scroll', async () => {
  seedChat('Long chat', 1000);
  seedChat('Short chat', 10);
  const { page, errors } = await openApp(browser, { hash: '#/chat' });
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await chats.getByRole('button', { name: 'Long chat', exact: true }).waitFor();
  await chats.getByRole('button', { name: 'Short chat', exact: true }).waitFor();

  // Time to show each, after one warm-up open of both (first renders load code).
  const lastLong = 'Message 1000 of Long chat:';
  const lastShort = 'Message 10 of Short chat:';
  await openTimed(page, 'Short chat', lastShort);
  await openTimed(page, 'Long chat', lastLong);
  const long = [], short = [];
  for (let i = 0; i < 5; i++) {
    short.push(await openTimed(page, 'Short chat', lastShort));
    long.push(await openTimed(page, 'Long chat', lastLong));
  }
  const ratio = median(long) / median(short);
  console.log(`open to last message visible: 1,000 messages ${median(long).toFixed(1)} ms, 10 messages ${median(short).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (runs: ${long.map((x) => x.toFixed(0))} / ${short.map((x) => x.toFixed(0))})`);
  assert.ok(ratio <= 4, `opening 1,000 messages took ${ratio.toFixed(2)}× as long as 10`);

  // The long chat is open at its end, with only a page of messages in the DOM.
  const list = page.getByLabel('Messages', { exact: true });
  const articles = list.locator('article.message');
  await articles.filter({ hasText: 'Message 1000 of Long chat:' }).waitFor();
  assert.ok(await articles.count() < 120, `the DOM holds ${await articles.count()} messages at the end`);
  await screenshot(page, 'longchat-end');

  // Scrolling to the top loads the older pages, the message on top staying where it was.
  let pages = 0;
  for (;;) {
    // At the top, the oldest message loaded is first, where the list's content starts.
    const oldest = 971 - 50 * pages; // it opens with the last 30, then pages of 50
    const y0 = await list.evaluate((el) => {
      el.scrollTop = 0;
      return (el.querySelector('.virtual-list') ?? el.querySelector('article.message')).offsetTop;
    });
    // Wait until the list settled: no page loading, the message that was on top no longer being held in place.
    const state = await page.waitForFunction(() => {
      const el = document.querySelector('[aria-label="Messages"]');
      if (el.dataset.pinned || el.getAttribute('aria-busy') === 'true') return false;
      if (el.scrollTop > 0) return 'more';
      return [...el.querySelectorAll('article.message')].some((a) => a.textContent.includes('Message 1 of Long chat:')) && 'first';
    }, null, { timeout: 15_000 }).then((h) => h.jsonValue());
    const n = await articles.count();
    assert.ok(n < 120, `the DOM holds ${n} messages after ${pages} older pages`);
    if (state === 'first') break;
    pages++;
    const y = await list.evaluate((el, text) => {
      const a = [...el.querySelectorAll('article.message')].find((x) => x.textContent.includes(text));
      return a ? a.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
    }, `Message ${oldest} of Long chat:`);
    // Tolerance: the "Load earlier messages" row above goes with the last page.
    assert.ok(y !== null && Math.abs(y - y0) < 60, `page ${pages}: message ${oldest} was at ${y0} px on top and moved to ${y}`);
    if (pages === 10) await screenshot(page, 'longchat-middle');
    assert.ok(pages < 40, 'the first message never showed');
  }
  assert.ok(pages >= 20, `only ${pages} older pages of 50 loaded before the first message`);
  await articles.filter({ hasText: 'Message 1 of Long chat:' }).waitFor();
  await screenshot(page, 'longchat-top');

  // The keyboard scrolls the list back to the end.
  await list.focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => {
    const el = document.querySelector('[aria-label="Messages"]');
    const a = [...el.querySelectorAll('article.message')].find((x) => x.textContent.includes('Message 1000 of Long chat:'));
    if (!a) return false;
    const r = a.getBoundingClientRect(), box = el.getBoundingClientRect();
    return r.top < box.bottom && r.bottom > box.top;
  }, null, { timeout: 15_000 });
  assert.ok(await articles.count() < 120, 'the DOM holds a window of messages at the end again');

  // A turn in the long chat: the reply shows at the end; afterwards only the last page is read
  // again and spliced in, so the 1,000 messages loaded before are all still there.
  await resetModel();
  // 1,000 messages are over the fake model's assumed 32k window: the earlier turns are
  // summarised before the question is sent (#45), so the summary requests get their own answer.
  await scriptModel(
    { when: 'Write the summary now.', text: 'Summary: a long chat of numbered messages.' },
    { when: 'One more question', text: 'A reply at the end of a long chat.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('One more question');
  await box.press('Enter');
  await articles.filter({ hasText: 'A reply at the end of a long chat.' }).and(page.locator('[data-status="complete"]')).waitFor();
  // The stored tail replaced what streamed in: the reply now has its seq, after the question's.
  // A streamed message has seq 0 until then: wait for the stored one, not for any seq.
  const stored = articles.filter({ hasText: 'A reply at the end of a long chat.' }).and(page.locator('[data-seq]:not([data-seq="0"])'));
  await stored.waitFor();
  assert.ok(Number(await stored.getAttribute('data-seq')) >= 1002, 'the reply is stored after the 1,001st message');
  await untilInPage(page, () => {
    const el = document.querySelector('[aria-label="Messages"]');
    const a = [...el.querySelectorAll('article.message')].find((x) => x.textContent.includes('A reply at the end of a long chat.'));
    const r = a?.getBoundingClientRect(), box = el.getBoundingClientRect();
    return a && r.top < box.bottom && r.bottom > box.top;
  }, null, { what: 'the reply in view' });
  assert.ok(await articles.count() < 120, `the DOM holds ${await articles.count()} messages after a turn`);
  await screenshot(page, 'longchat-reply');
  await list.focus();
  await page.keyboard.press('Home');
  await articles.filter({ hasText: 'Message 1 of Long chat:' }).waitFor();
  assert.equal(await list.getByRole('button', { name: 'Load earlier messages' }).count(), 0, 'the older pages were kept');
  assert.deepEqual(errors, []);
  await page.close();
});
