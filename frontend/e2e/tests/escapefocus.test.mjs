// What a demanding first-time user found (UI probe 2): every dialog, panel,
// popover and confirm closes with Escape and gives focus back to the control
// that opened it; a destructive confirm starts on the safe choice and a
// double-click does not confirm; each page opens at its top; the Tools page
// sums up the servers without tools in one line; the Servers page lists the
// servers that need attention first, with the rare actions in a "⋯" menu.
// Screenshots: escapefocus-<what>-<width>-<scheme>.png at 720, 1280 and 1920 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, modelRequests, resetModel, screenshot, scriptModel as script, seedChat, serverAction, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const WIDTHS = [720, 1280, 1920];
const LONG = 'Quarterly planning for the EMEA infrastructure migration including Kubernetes upgrade, Postgres failover drills and the vendor contract renewal discussion notes';

/** focused waits until the element locator finds has the focus (a render or two after the key). */
async function focused(locator, what) {
  const el = await locator.elementHandle();
  await locator.page().waitForFunction((e) => e === document.activeElement, el, { timeout: 5_000 })
    .catch(async () => {
      const now = await locator.page().evaluate(() => {
        const a = document.activeElement;
        return a ? `${a.tagName} ${a.getAttribute('aria-label') ?? a.textContent?.trim().slice(0, 40)}` : 'nothing';
      });
      assert.fail(`${what} has the focus (it is on ${now})`);
    });
}

const row = (page, name) => page.getByRole('listitem', { name, exact: true });

test('servers: import, edit, remove and the ⋯ menu close with Escape and give focus back', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  const everything = row(page, 'everything');
  await everything.waitFor();

  // Ctrl+I opens the import with focus in its config box; Esc closes it, focus on Import….
  await page.keyboard.press('Control+i');
  const wizard = page.getByRole('region', { name: 'Import servers' });
  await focused(page.getByRole('textbox', { name: 'Config JSON, TOML or YAML' }), 'the import\'s config box');
  await page.keyboard.press('Escape');
  await wizard.waitFor({ state: 'detached' });
  await focused(page.getByRole('button', { name: 'Import…' }), 'Import…');

  // Edit: focus moves into the editor; Esc closes it and focus returns to Edit.
  const edit = everything.getByRole('button', { name: 'Edit', exact: true });
  await edit.click();
  const editor = page.getByRole('form', { name: 'Edit everything' });
  await focused(editor.getByRole('textbox', { name: 'Name' }), 'the editor\'s Name field');
  await page.keyboard.press('Escape');
  await editor.waitFor({ state: 'detached' });
  await focused(edit, 'Edit');

  // Remove… is in the ⋯ menu; the confirm starts on Cancel (Enter-Enter does not
  // remove), a double-click does not remove, Esc cancels.
  const more = everything.getByRole('button', { name: 'More actions for everything' });
  await more.click();
  const menu = everything.getByRole('group', { name: 'More actions for everything' });
  await focused(menu.getByRole('button', { name: 'Details' }), 'the menu\'s first action');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await focused(more, 'the ⋯ button');
  // A double-click on Remove… opens the confirm and presses nothing in it.
  await more.click();
  await menu.getByRole('button', { name: 'Remove…' }).dblclick();
  const confirm = page.getByRole('alertdialog', { name: 'Remove everything?' });
  await confirm.waitFor();
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await everything.count(), 1, 'the double-click removed nothing');
  await serverAction(everything, 'Remove');
  await focused(confirm.getByRole('button', { name: 'Cancel' }), 'Cancel');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  await focused(more, 'the ⋯ button');

  // The server that cannot start is listed first, under a one-line summary; its card has one Edit.
  const broken = row(page, 'broken');
  await broken.locator('[data-state="error"]').waitFor({ timeout: 60_000 });
  await page.getByRole('status').filter({ hasText: /1 server needs attention|servers need attention/ }).waitFor();
  const first = await page.getByRole('list', { name: 'Servers' }).getByRole('listitem').first().getAttribute('aria-label');
  assert.equal(first, 'broken', 'the server in error is listed first');
  assert.equal(await broken.getByRole('button', { name: /^Edit/ }).count(), 1, 'one Edit on an error card');
  assert.equal(await everything.getByRole('button', { name: 'Remove' }).count(), 0, 'Remove is not beside Disable');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `escapefocus-servers-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
});

test('each page opens at its top; a link to a Settings section goes there; About gives focus back', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await row(page, 'everything').waitFor();
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.locator('main.content').evaluate((m) => { m.scrollTop = m.scrollHeight; });
  assert.ok(await page.locator('main.content').evaluate((m) => m.scrollTop > 0), 'the Servers page scrolled');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  assert.equal(await page.locator('main.content').evaluate((m) => m.scrollTop), 0, 'Settings opens at its top');

  await page.evaluate(() => { location.hash = '#/settings/secrets'; });
  await focused(page.getByRole('heading', { name: 'Secrets', level: 2 }), 'the Secrets section\'s heading');
  assert.ok(await page.locator('main.content').evaluate((m) => m.scrollTop > 0), 'the link scrolled to its section');
  for (const width of [720]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('table', { name: 'Secrets' }).scrollIntoViewIfNeeded();
    const th = page.getByRole('table', { name: 'Secrets' }).getByRole('columnheader', { name: 'Value' });
    const { height } = await th.boundingBox();
    assert.ok(height < 40, `the Value heading is on one line at ${width}px (${height}px high)`);
    await screenshot(page, `escapefocus-secrets-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  const about = page.getByRole('button', { name: 'About Switchboard' });
  await about.click();
  const dialog = page.getByRole('dialog', { name: /^About / });
  await focused(dialog.getByRole('button', { name: 'Close' }), 'About\'s Close');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await focused(about, 'About Switchboard');
  assert.deepEqual(errors, []);
});

test('the Tools page sums up the servers without tools in one line', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/tools' });
  await page.getByRole('list', { name: 'Tools of the server' }).getByRole('listitem').first().waitFor();
  const summary = page.getByRole('status').filter({ hasText: /servers? unavailable/ });
  await summary.waitFor();
  assert.equal(await page.locator('.tools-unavailable').count(), 1, 'one summary, not a box a server');
  assert.equal(await summary.getByText('broken', { exact: false }).isVisible(), false, 'the details are folded');
  // An unannotated tool (the memory server's) may change things; it is not called destructive.
  await page.getByLabel('Server', { exact: true }).selectOption('memory');
  await page.getByRole('button', { name: 'create_entities' }).click();
  await page.getByText('memory__create_entities · may change things').waitFor();
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `escapefocus-tools-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await summary.getByRole('link', { name: 'See Servers' }).click();
  await page.getByRole('heading', { name: 'Servers', level: 1 }).waitFor();
  assert.deepEqual(errors, []);
});

test('chat: delete asks on Keep, a double-click does not delete; the options menu and an approval close with Escape', async () => {
  await resetModel();
  seedChat(LONG, 4);
  const { page, errors } = await sharedApp(browser, { hash: '#/chat' });
  const list = page.getByRole('navigation', { name: 'Chats' });
  const item = list.getByRole('button', { name: LONG });
  await item.click();
  // The long title: two lines in the list, a title tooltip.
  const { height } = await item.boundingBox();
  assert.ok(height < 60, `the title takes at most two lines in the list (${height}px)`);
  assert.equal(await item.getAttribute('title'), LONG);

  // A double-click on Delete opens the confirm and deletes nothing; Esc keeps the chat.
  const del = list.getByRole('button', { name: 'Delete', exact: true });
  await del.dblclick();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${LONG}?` });
  await confirm.waitFor();
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await item.count(), 1, 'the double-click deleted nothing');
  // From the keyboard: the confirm starts on Keep, so Enter-Enter keeps it; Esc gives focus back to Delete.
  await del.focus();
  await page.keyboard.press('Enter');
  await focused(confirm.getByRole('button', { name: 'Keep' }), 'Keep');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  await focused(del, 'the Delete link');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await item.count(), 1, 'Enter-Enter deleted nothing');

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      if (width >= 1000) {
        const title = page.locator('.chat-header .chat-title');
        const w = (await title.boundingBox()).width;
        assert.ok(w > 300, `the header's title is readable at ${width}px (${w}px)`);
      }
      await screenshot(page, `escapefocus-chat-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // At 720 the chat's options are in "⋯": focus moves in, Esc closes, focus back on ⋯.
  await page.setViewportSize({ width: 720, height: 900 });
  const more = page.getByRole('button', { name: 'Chat options' });
  await more.click();
  const menu = page.getByRole('dialog', { name: 'Chat options' });
  await focused(menu.getByRole('combobox').first(), 'the menu\'s first control');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await focused(more, 'the ⋯ button');
  await page.setViewportSize({ width: 1280, height: 900 });

  // An approval takes the focus; Esc there stops the answer, as the hint says, and focus goes back to the message box.
  await page.getByRole('button', { name: 'New chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await script(
    { toolCalls: [{ id: 'call_esc', name: 'workspace__execute_shell', arguments: '{"command":"rm -rf ./build"}' }] },
    { text: 'Not run.' },
  );
  await box.fill('Clean the build folder');
  await box.press('Enter');
  const card = page.getByTestId('approval-card');
  // The card takes the focus, not Allow once: an Enter meant for the message
  // box approves nothing. Tab reaches the buttons.
  await focused(card, 'the approval card');
  // (Had Enter approved, the card would be gone before Tab, and the model
  // would have been sent the call's result, checked below.)
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await focused(card.getByRole('button', { name: 'Allow once' }), 'Allow once');
  await page.keyboard.press('Escape');
  await card.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  await focused(box, 'the message box');
  assert.ok(!(await modelRequests()).some((r) => JSON.stringify(r).includes('"tool_call_id":"call_esc"')), 'the model was sent no result of the call');
  await resetModel();
  assert.deepEqual(errors, []);
});
