// Knowledge: create a store, add a file, search it, see the highlighted hit,
// open the document at the matching lines; deleting asks first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, openApp, screenshot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('create a store, add a file, search and read the hit', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/knowledge' });
  await page.getByRole('heading', { level: 1, name: 'Knowledge' }).waitFor();
  const create = page.getByRole('form', { name: 'Create a store' });
  await create.getByLabel('New store').fill('e2e-notes');
  await create.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-notes/ }).waitFor();

  const doc = '# Gardening\n\nTomatoes need sun.\n\n## Watering\n\nWater the zucchini every morning.\nNever at noon.\n';
  await page.getByLabel('Add files').setInputFiles({ name: 'garden.md', mimeType: 'text/markdown', buffer: Buffer.from(doc) });
  await page.getByText(/^1 document ·/).first().waitFor();

  await page.getByRole('searchbox').fill('zucchini');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('list', { name: 'Results' });
  await results.locator('mark', { hasText: 'zucchini' }).waitFor();
  assert.match(await results.innerText(), /garden\.md › Gardening > Watering lines 5–8/);
  await results.getByRole('button', { name: /garden\.md/ }).click();
  const viewer = page.getByRole('region', { name: 'Document garden.md' });
  await viewer.locator('.hit-line', { hasText: 'Water the zucchini every morning.' }).waitFor();
  await screenshot(page, 'knowledge-search');

  // A PDF goes in too: the page sends its bytes, the store extracts the text.
  const pdf = readFileSync(path.resolve(import.meta.dirname, '../../../builtin/contentstore/testdata/pdf/report.pdf'));
  await page.getByLabel('Add files').setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf });
  await page.getByText(/^2 documents ·/).first().waitFor();
  await page.getByRole('searchbox').fill('resumable uploads');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await results.locator('mark', { hasText: /resumable/i }).waitFor();
  assert.match(await results.innerText(), /Harbor Operations Report lines/);

  await page.getByRole('button', { name: 'Delete store…' }).click();
  await page.getByRole('alertdialog', { name: 'Delete store e2e-notes?' }).getByRole('button', { name: 'Delete store' }).click();
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-notes/ }).waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
