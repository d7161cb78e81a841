// A model whose context window nobody tells (the fake's model list gives none, and the family is not
// known): the chat is still kept under a window, a conservative one, and the header's meter says it was
// assumed and where to set the real one (Settings → Chat → Long chats → Context windows).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, resetModel, screenshot, scriptModel } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the meter says the window is assumed and where to set it', async () => {
  await resetModel();
  const { page, errors } = await openApp(browser, { hash: '#/chat' });
  await scriptModel({ text: 'Hello, I am here.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('hello');
  await box.press('Enter');
  await page.getByTestId('message-assistant').getByText('Hello, I am here.').waitFor();

  const meter = page.getByRole('button', { name: /^\d+% · assumed — context .* of 32k tokens \(window assumed\)$/ });
  await meter.waitFor();
  assert.match(await meter.textContent(), /assumed/, 'the gauge itself says assumed');
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.keyboard.press('Escape');
    await meter.click();
    const pop = page.getByRole('dialog', { name: 'Context window' });
    const note = pop.getByRole('note');
    await note.waitFor();
    assert.match(await note.textContent(), /32k tokens is assumed\. Set the real one in Settings → Chat → Long chats → Context windows/);
    const b = await pop.boundingBox();
    assert.ok(b && b.x >= 0 && b.x + b.width <= width, `the meter's popover is on screen at ${width} px`);
    const m = await meter.boundingBox();
    assert.ok(m && m.x >= 0 && m.x + m.width <= width, `the meter is on screen at ${width} px`);
    await screenshot(page, `contextassumed-${width}`);
  }
  await page.keyboard.press('Escape');
  assert.equal(errors.length, 0, errors.join('\n'));
  await resetModel();
});
