// Knowledge: create a store, add a file, search it, see the highlighted hit,
// open the document at the matching lines; deleting asks first. A store of
// more than a page lists its documents a page at a time; a store another
// program holds is shown as held; an error banner goes with the next search.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env, launch, openApp, screenshot } from '../lib.mjs';

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

test('a big store is listed a page at a time; a held store says so; an old error goes with the next search', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/knowledge' });
  await page.getByRole('heading', { level: 1, name: 'Knowledge' }).waitFor();
  const create = page.getByRole('form', { name: 'Create a store' });
  await create.getByLabel('New store').fill('e2e-many');
  await create.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-many/ }).waitFor();
  // 120 documents, added the way the model adds text (one call each).
  await page.evaluate(async () => {
    for (let i = 1; i <= 120; i++) {
      const res = await window.go.gui.ToolsPage.CallTool('content-store__addContent', JSON.stringify({ storeId: 'e2e-many', title: `note ${i}`, text: `note number ${i}` }));
      if (res.isError) throw new Error(res.content[0].text);
    }
  });
  await page.reload();
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-many/ }).click();
  const pages = page.getByRole('navigation', { name: 'Document pages' });
  await pages.getByText('Showing 1–100 of 120').waitFor();
  // The search box and the drop zone stay above the table.
  const top = async (loc) => (await loc.boundingBox()).y;
  assert.ok(await top(page.getByRole('search')) < await top(page.getByRole('table', { name: 'Documents' })));
  assert.ok(await top(page.getByText('Drop files here')) < await top(page.getByRole('table', { name: 'Documents' })));
  await pages.getByRole('button', { name: 'Next' }).click();
  await pages.getByText('Showing 101–120 of 120').waitFor();
  await screenshot(page, 'knowledge-pages');

  // A query over the limit is an error banner; the next search clears it.
  await page.getByRole('searchbox').fill('x'.repeat(1001));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'the limit is 1000' }).waitFor();
  await page.getByRole('searchbox').fill('🎉');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('list', { name: 'Results' }).getByText(/the query has no words to search for/).waitFor();
  assert.equal(await page.getByRole('alert').filter({ hasText: 'the limit is 1000' }).count(), 0);

  // Another program holds the store: its lock file names a live process
  // (this test's), so the list says so at once instead of "0 documents".
  const lock = path.join(env('E2E_DATA_DIR'), 'stores', 'e2e-many', 'lock.json');
  // First the app lets go of the store (a second after its last use), which removes its own lock file.
  for (const deadline = Date.now() + 15_000; existsSync(lock);) {
    if (Date.now() > deadline) throw new Error('the app kept the store open');
    await new Promise((r) => setTimeout(r, 100));
  }
  writeFileSync(lock, JSON.stringify({ pid: process.pid, process: 'switchboard builtin content-store', since: new Date().toISOString() }));
  try {
    await page.reload();
    const entry = page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-many/ });
    await entry.getByText('in use by another program').waitFor();
    await entry.click();
    const state = page.getByRole('status', { name: 'Store state' });
    await state.getByText(/switchboard builtin content-store/).waitFor();
    await screenshot(page, 'knowledge-held');
  } finally {
    rmSync(lock, { force: true });
  }
  await page.getByRole('status', { name: 'Store state' }).getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-many/ }).getByText(/120 documents/).waitFor();

  await page.getByRole('button', { name: 'Delete store…' }).click();
  await page.getByRole('alertdialog', { name: 'Delete store e2e-many?' }).getByRole('button', { name: 'Delete store' }).click();
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /e2e-many/ }).waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
