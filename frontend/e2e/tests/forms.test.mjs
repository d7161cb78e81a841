// Forms made from a tool's JSON Schema on the Tools page: an array of
// objects with arrays inside (the real memory server's create_entities) gets
// visible, labelled Add / Move / Remove buttons that work, at a narrow and a
// wide window, and the call it makes runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, screenshot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** assertButton: the button is on screen, reads text and is big enough to hit. */
async function assertButton(button, text) {
  await button.waitFor();
  assert.equal((await button.innerText()).trim(), text);
  const box = await button.boundingBox();
  assert.ok(box && box.width >= 40 && box.height >= 20, `${text} is ${JSON.stringify(box)}`);
  const style = await button.evaluate((b) => { const s = getComputedStyle(b); return { color: s.color, visibility: s.visibility, opacity: s.opacity }; });
  assert.equal(style.visibility, 'visible');
  assert.notEqual(style.opacity, '0');
}

test('array buttons on the Tools page are labelled and work, at 720 and 1280 px', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/tools' });
  await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
  await page.getByLabel('Server', { exact: true }).selectOption('memory');
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('button', { name: 'create_entities', exact: true }).click();
  const form = page.getByRole('form', { name: 'Arguments of memory__create_entities' });
  await form.waitFor();

  await form.getByRole('button', { name: 'Add item to entities' }).click();
  const entity = form.getByRole('group', { name: 'Item 1' }).first();
  await entity.getByRole('textbox', { name: /^name/ }).fill('forms-e2e');
  await entity.getByRole('textbox', { name: /^entityType/ }).fill('test');
  const addObservation = entity.getByRole('button', { name: 'Add item to observations' });
  await addObservation.click();
  await addObservation.click();
  const observations = entity.getByRole('group', { name: 'observations' });
  await observations.getByRole('group', { name: 'Item 1' }).getByRole('textbox').fill('first');
  await observations.getByRole('group', { name: 'Item 2' }).getByRole('textbox').fill('second');

  for (const width of [1280, 720]) {
    await page.setViewportSize({ width, height: 900 });
    await assertButton(form.getByRole('button', { name: 'Add item to entities' }), 'Add item');
    await assertButton(addObservation, 'Add item');
    await assertButton(observations.getByRole('button', { name: 'Move up item 2' }), 'Move up');
    await assertButton(observations.getByRole('button', { name: 'Move down item 1' }), 'Move down');
    await assertButton(observations.getByRole('button', { name: 'Remove item 2' }), 'Remove');
    await assertButton(form.getByRole('button', { name: 'Remove item 1' }).last(), 'Remove');
    // The form fits its column: nothing of it is cut off to the right.
    const overflow = await form.evaluate((f) => f.scrollWidth - f.clientWidth);
    assert.ok(overflow <= 1, `the form is ${overflow}px wider than its column at ${width}px`);
    await screenshot(page, `forms-array-${width}`);
  }

  // Move up swaps the two observations; Run sends them in that order.
  await observations.getByRole('button', { name: 'Move up item 2' }).click();
  assert.equal(await observations.getByRole('group', { name: 'Item 1' }).getByRole('textbox').inputValue(), 'second');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.waitFor();
  assert.match(await result.innerText(), /forms-e2e/);
  assert.match(await result.innerText(), /"second",\s*"first"/);
  assert.deepEqual(errors, []);
  await page.close();
});
