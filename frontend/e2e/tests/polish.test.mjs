// Menus and shortcuts, and documents you can manage (#46): Ctrl+N starts a
// new chat from any page (one: on a chat still empty it makes no other), Ctrl+I opens the import, Ctrl+/ the shortcuts sheet
// (with the macOS keys beside), the shortcuts are in tooltips; a store lists
// its documents (title, source, size, added) with Re-index and Remove, and
// every count is in words ("1 document"). Screenshots at 720, 1280 and 1920 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, screenshot, sharedApp, untilInPage } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const WIDTHS = [720, 1280, 1920];

test('Ctrl+N starts a new chat from any page; Ctrl+I opens the import', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  const chats = () => page.evaluate(async () => (await window.go.gui.ChatPage.Chats(1000, 0)).length);
  const untilChats = (n) => untilInPage(page, async (want) => (await window.go.gui.ChatPage.Chats(1000, 0)).length === want, n, { what: `${n} chats` });
  const before = await chats();
  await page.keyboard.press('Control+n');
  await page.locator('#page-title', { hasText: 'Chat' }).waitFor({ state: 'attached' });
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  await untilChats(before + 1);
  // Again from inside the message box: the shortcut works where the user types, and on a chat
  // still empty it makes no other "Untitled chat" (the cursor stays in its message box).
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
  await page.keyboard.press('Control+n');
  await page.keyboard.press('Control+2'); // and from another page
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await page.keyboard.press('Control+n');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
  assert.equal(await chats(), before + 1, 'New chat on an empty chat reuses it');
  assert.equal(await page.getByRole('navigation', { name: 'Chats' }).locator('li > button', { hasText: /^Untitled chat$/ }).count(), 1);

  await page.keyboard.press('Control+i');
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  await page.getByRole('region', { name: 'Import servers' }).waitFor();
  assert.match(await page.getByRole('button', { name: 'Import…' }).getAttribute('title'), /Ctrl\+I/);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const width of WIDTHS) {
  test(`the shortcuts sheet lists the menus' keys with macOS's at ${width} px`, async () => {
    const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
    await page.setViewportSize({ width, height: width === 720 ? 600 : 900 });
    await page.locator('#page-title').waitFor({ state: 'attached' });
    await page.keyboard.press('Control+/');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    const file = sheet.getByRole('table', { name: 'File' });
    assert.match(await file.getByRole('row', { name: /New chat/ }).innerText(), /Ctrl\+N\s+⌘N/);
    const pages = sheet.getByRole('table', { name: 'Pages' });
    assert.match(await pages.getByRole('row', { name: /Settings/ }).innerText(), /Ctrl\+7\s+⌘7/);
    assert.match(await sheet.getByRole('table', { name: 'In the chat' }).innerText(), /Stop the answer\s+Esc/);
    // The sheet fits the window.
    const b = await sheet.boundingBox();
    assert.ok(b.x >= 0 && b.x + b.width <= width, `sheet is inside the window: ${JSON.stringify(b)}`);
    await screenshot(page, `polish-shortcuts-${width}`);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    // Tooltips say the keys too.
    if (width >= 1000) {
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Servers' }).getAttribute('title'), 'Servers (Ctrl+2)');
      assert.equal(await page.getByRole('button', { name: 'New chat', exact: true }).getAttribute('title'), 'New chat (Ctrl+N)');
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a store lists its documents with Re-index and Remove, counted in words', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/knowledge' });
  await page.getByRole('heading', { level: 1, name: 'Knowledge' }).waitFor();
  const create = page.getByRole('form', { name: 'Create a store' });
  await create.getByLabel('New store').fill('polish-docs');
  await create.getByRole('button', { name: 'Create' }).click();
  const storeButton = page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: /polish-docs/ });
  await storeButton.waitFor();
  await storeButton.click();
  await page.getByText('No documents yet.').waitFor();
  await page.getByLabel('Add files').setInputFiles([
    { name: 'alpha-notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Alpha\n\nThe heron nests by the river.\n') },
  ]);
  await storeButton.getByText('1 document ·').waitFor();
  const docs = page.getByRole('table', { name: 'Documents' });
  const alpha = docs.getByRole('row', { name: 'alpha-notes.md' });
  await alpha.waitFor();
  assert.match(await alpha.innerText(), /added here\s+\d+ B/); // a file picked in the window: its name, and where it came from
  await page.getByLabel('Add files').setInputFiles([
    { name: 'beta-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The otter swims at dawn.\n'.repeat(60)) },
  ]);
  await storeButton.getByText('2 documents ·').waitFor();
  await docs.getByRole('row', { name: 'beta-notes.txt' }).waitFor();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await screenshot(page, `polish-documents-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await alpha.getByRole('button', { name: 'Re-index' }).click();
  // A file picked in the window cannot be read again: its kept text is, and the note says how to take in an edited copy.
  await page.getByRole('status').filter({ hasText: /^Re-indexed alpha-notes\.md: .*add the file again\.$/ }).waitFor();
  await alpha.getByRole('button', { name: 'Remove…' }).click();
  await alpha.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await alpha.waitFor({ state: 'detached' });
  await storeButton.getByText('1 document ·').waitFor();
  // Removed means not found any more.
  await page.getByRole('searchbox').fill('heron');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('list', { name: 'Results' }).getByText(/^No matches in this store\. Try other words/).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
