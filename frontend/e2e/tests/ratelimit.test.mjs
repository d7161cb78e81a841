// A rate-limited model: the chat counts the provider's Retry-After down under
// the messages, and Retry now (by keyboard here) asks again at once instead of
// waiting it out; the answer then arrives long before the wait would have ended.
// Screenshots: ratelimit-wait-<width>.png at 720, 1280 and 1920 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, modelRequests, openApp, resetModel, scriptModel as script, screenshot } from '../lib.mjs';

let browser, shared;
before(async () => { browser = await launch(); });
after(async () => {
  await shared?.page.close();
  await browser?.close();
});

const WIDTHS = [720, 1280, 1920];
const WAIT_S = 50; // the provider's Retry-After: far longer than the test waits

for (const width of WIDTHS) {
  test(`Retry now ends a rate limit's wait at ${width} px`, async () => {
    await resetModel();
    shared ??= await openApp(browser, { hash: '#/chat' });
    const { page, errors } = shared;
    await page.setViewportSize({ width, height: width === 720 ? 600 : 800 });
    if (width < 1000) await page.getByRole('button', { name: 'Menu and chats' }).click();
    await page.getByRole('button', { name: 'New chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.waitFor();
    await script({ status: 429, retryAfter: String(WAIT_S) }, { text: `ANSWERED AFTER RETRY NOW ${width}` });
    const before = (await modelRequests()).length;
    await box.fill('Hello there');
    await box.press('Enter');

    const notice = page.getByText(/The provider is rate-limited; retrying in \d+ s…/); // the visible line (its spoken twin says "seconds")
    await notice.waitFor({ timeout: 15_000 });
    const retry = page.getByRole('button', { name: 'Retry now' });
    assert.ok(await retry.isVisible(), 'Retry now is shown with the countdown');
    const b = await retry.boundingBox();
    const vp = page.viewportSize();
    assert.ok(b && b.x >= 0 && b.x + b.width <= vp.width && b.y + b.height <= vp.height, `Retry now is on screen: ${JSON.stringify(b)} in ${JSON.stringify(vp)}`);
    await screenshot(page, `ratelimit-wait-${width}`);

    const clicked = Date.now();
    await retry.focus();
    await page.keyboard.press('Enter');
    await page.getByText(`ANSWERED AFTER RETRY NOW ${width}`).waitFor({ timeout: 20_000 });
    const took = (Date.now() - clicked) / 1000;
    assert.ok(took < WAIT_S - 10, `the answer came ${took.toFixed(1)} s after Retry now, not after the ${WAIT_S} s wait`);
    assert.equal(await notice.count(), 0, 'the countdown is gone once the answer came');
    assert.equal((await modelRequests()).length - before, 2, 'one refused request and one retried at once');
    assert.deepEqual(errors, [], 'no page errors');
  });
}
