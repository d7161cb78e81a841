// Every page at every window width a laptop or a 4K screen gives it: no
// horizontal scrollbar (the document's nor the page's own scroll container),
// the composer's Send on screen at 720×600, the chat header's controls in its
// "⋯" menu when narrow, the navigation and chat list in a drawer below
// 1000 px (Esc and a click outside close it, focus goes in and back), and
// popovers inside the window. Screenshots: layout-<page>-<width>.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, openApp, screenshot, seedChat, startOwnApp } from '../lib.mjs';

// Width → height: 720×600 is the smallest window the app promises to work in.
const SIZES = [[720, 600], [960, 720], [1280, 800], [1920, 1080]];
const PAGES = ['chat', 'servers', 'tools', 'knowledge', 'workspace', 'agents', 'settings'];
const NARROW = 1000; // below it the navigation is a drawer

let browser, shared;
before(async () => {
  browser = await launch();
  seedChat('A long chat title to show how the header copes with a narrow window and a lot of words', 12);
});
after(async () => {
  await shared?.page.close();
  await browser?.close();
});

/**
 * sharedApp is the page the tests of the shared app run in, one after
 * another (opening one costs seconds): each resizes it, and starts with the
 * drawer shut; none leaves a dialog open.
 */
async function sharedApp({ width, height }) {
  shared ??= await openApp(browser, { hash: '#/servers' });
  const { page } = shared;
  await page.setViewportSize({ width, height });
  if (await page.locator('.shell.drawer-open').count()) {
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.shell.drawer-open'));
  }
  return shared;
}

/** overflow reports each scroll container (the document, #main, and any of selectors) that scrolls sideways. */
function overflow(page, selectors = []) {
  return page.evaluate((sels) => {
    const els = [['document', document.documentElement], ['#main', document.getElementById('main')],
      ...sels.map((s) => [s, document.querySelector(s)])];
    return els.filter(([, el]) => el && el.scrollWidth > el.clientWidth)
      .map(([name, el]) => `${name}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
  }, selectors);
}

/** inView says whether the element's box is entirely inside the window. */
async function inView(page, locator) {
  const b = await locator.boundingBox();
  const v = page.viewportSize();
  return !!b && b.x >= 0 && b.y >= 0 && b.x + b.width <= v.width + 0.5 && b.y + b.height <= v.height + 0.5;
}

async function noOverflow(page, what, selectors) {
  // Layout settles after data arrives; give it two frames.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.deepEqual(await overflow(page, selectors), [], `${what} scrolls sideways`);
}

async function goTo(page, id) {
  await page.evaluate((h) => { location.hash = h; }, `#/${id}`);
  await page.locator('#page-title').waitFor({ state: 'attached' });
  await page.waitForFunction((t) => document.getElementById('page-title')?.textContent?.toLowerCase() === t, id);
}

/** openChat opens the seeded chat: from the drawer in a narrow window. */
async function openSeededChat(page, narrow) {
  if (narrow) await page.getByRole('button', { name: 'Menu and chats' }).click();
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^A long chat title/ }).click();
  await page.getByRole('heading', { level: 2, name: /^A long chat title/ }).waitFor();
  await page.locator('[data-testid="message-user"]').first().waitFor();
}

for (const [width, height] of SIZES) {
  test(`every page at ${width}×${height}`, async () => {
    const { page, errors } = await sharedApp({ width, height });
    const narrow = width < NARROW;
    for (const id of PAGES) {
      await goTo(page, id);
      if (id === 'chat') await openSeededChat(page, narrow);
      if (id === 'servers') await page.getByRole('listitem', { name: 'everything', exact: true }).waitFor();
      // The first server's tools, once listed (the shared app's servers have some).
      if (id === 'tools') await page.getByRole('list', { name: 'Tools of the server' }).getByRole('listitem').first().waitFor();
      await noOverflow(page, `${id} at ${width}px`, id === 'chat' ? ['.messages', '.chat-header'] : []);
      await screenshot(page, `layout-${id}-${width}`);
    }

    // Nothing of the chat's header leaves it; narrow, its controls are in the "⋯" menu, which stays in the window.
    await goTo(page, 'chat');
    const header = page.locator('.chat-header');
    const compact = await header.evaluate((h) => h.classList.contains('compact'));
    if (width <= 720) assert.ok(compact, `the chat header is compact at ${width}px`);
    if (width >= 960) assert.ok(!compact, `the chat header shows its controls at ${width}px`);
    if (compact) {
      await page.getByRole('button', { name: 'Chat options' }).click();
      const menu = page.getByRole('dialog', { name: 'Chat options' });
      assert.ok(await inView(page, menu), 'the chat options menu is inside the window');
      await menu.getByRole('combobox').first().waitFor(); // the provider
    }
    // Tools and Export popovers stay inside the window.
    await page.getByRole('button', { name: /^Tools: / }).click();
    const tools = page.getByRole('dialog', { name: 'Tools for this chat' });
    await tools.waitFor();
    assert.ok(await inView(page, tools), `the tools popover is inside the window at ${width}px`);
    await page.keyboard.press('Escape');
    await tools.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exp = page.getByRole('dialog', { name: 'Export chat' });
    await exp.getByRole('button', { name: 'Save to file…' }).waitFor();
    assert.ok(await inView(page, exp), `the export popover is inside the window at ${width}px`);
    await noOverflow(page, `chat with export open at ${width}px`);
    await screenshot(page, `layout-chat-export-${width}`);
    await exp.getByRole('button', { name: 'Close export' }).click();
    if (compact) await page.keyboard.press('Escape');

    // The composer and Send are on screen.
    const send = page.getByRole('button', { name: 'Send', exact: true });
    assert.ok(await inView(page, send), `Send is inside the window at ${width}×${height}`);
    assert.ok(await inView(page, page.getByRole('textbox', { name: 'Message' })), 'the message box is inside the window');

    // The drawer: there below 1000 px, the navigation beside the page above.
    const menuButton = page.locator('.topbar button');
    const nav = page.getByRole('navigation', { name: 'Main' });
    if (!narrow) {
      assert.equal(await menuButton.isVisible(), false, `no menu button at ${width}px`);
      assert.ok(await nav.getByRole('link', { name: 'Servers' }).isVisible(), 'the navigation is shown');
    } else {
      assert.equal(await nav.getByRole('link', { name: 'Servers' }).isVisible(), false, 'the navigation is in the closed drawer');
      await menuButton.click();
      await nav.getByRole('link', { name: 'Servers' }).waitFor({ state: 'visible' });
      assert.equal(await page.evaluate(() => !!document.activeElement?.closest('#drawer')), true, 'focus moved into the drawer');
      assert.equal(await menuButton.getAttribute('aria-expanded'), 'true');
      await screenshot(page, `layout-drawer-${width}`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.shell.drawer-open'));
      assert.equal(await page.evaluate(() => document.activeElement?.closest('.topbar') !== null), true, 'focus went back to the menu button');
      // A click outside closes it; a link in it goes to its page and closes it.
      await menuButton.click();
      await nav.getByRole('link', { name: 'Servers' }).waitFor({ state: 'visible' });
      await page.mouse.click(width - 20, height / 2);
      await page.waitForFunction(() => !document.querySelector('.shell.drawer-open'));
      await menuButton.click();
      await nav.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await page.waitForFunction(() => !document.querySelector('.shell.drawer-open'));
      // The page's heading has the focus: a screen reader says where the link went.
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1', 'focus on the new page\'s heading');
      // About from the drawer: the drawer goes as About opens, Escape closes
      // About (not a drawer hidden under it), focus is back on the menu button.
      await menuButton.click();
      await nav.getByRole('button', { name: 'About Switchboard' }).click();
      const about = page.getByRole('dialog', { name: /^About / });
      await about.waitFor();
      await page.waitForFunction(() => !document.querySelector('.shell.drawer-open'));
      await page.keyboard.press('Escape');
      await about.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.closest('.topbar') !== null), true, 'focus went back to the menu button after About');
    }

    // Dialogs: the import wizard with a preview, Test connection's report, About.
    await goTo(page, 'servers');
    await page.getByRole('button', { name: 'Import…' }).click();
    const wizard = page.getByRole('region', { name: 'Import servers' });
    await wizard.getByLabel('Config JSON').fill(JSON.stringify({
      mcpServers: {
        'a-server-with-a-rather-long-name': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/someone/Documents/projects/with/a/very/long/path/that/goes/on'], env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } },
        remote: { url: 'https://mcp.example.com/a/long/path/to/the/mcp/endpoint?with=query&and=more' },
        broken: { args: ['x'] },
      },
    }, null, 2));
    await wizard.getByRole('table', { name: 'Import preview' }).waitFor();
    await noOverflow(page, `the import wizard at ${width}px`);
    await screenshot(page, `layout-import-${width}`);
    await wizard.getByRole('button', { name: 'Close import' }).click();

    const row = page.getByRole('listitem', { name: 'everything', exact: true });
    await row.getByRole('button', { name: 'Test connection' }).click();
    // The report, once the test is over (while it runs, the status says it
    // goes on to tools/list, which matched this before the report was in).
    await page.getByRole('status', { name: 'Test of everything' }).and(page.locator('[aria-busy="false"]'))
      .getByText(/tools|failed/i).first().waitFor({ timeout: 60_000 });
    await noOverflow(page, `the test connection report at ${width}px`);
    await screenshot(page, `layout-testconnection-${width}`);

    if (narrow) await menuButton.click();
    await page.getByRole('button', { name: 'About Switchboard' }).click();
    const about = page.getByRole('dialog', { name: /^About / });
    await about.waitFor();
    assert.ok(await inView(page, about), `About is inside the window at ${width}px`);
    await noOverflow(page, `About at ${width}px`);
    await screenshot(page, `layout-about-${width}`);
    await about.getByRole('button', { name: 'Close' }).click();

    assert.deepEqual(errors.map(String), []);
  });
}

test('a 3840×2160 window keeps lines readable', async () => {
  const { page, errors } = await sharedApp({ width: 3840, height: 2160 });
  for (const id of ['chat', 'servers', 'settings']) {
    await goTo(page, id);
    if (id === 'chat') await openSeededChat(page, false);
    await noOverflow(page, `${id} at 3840px`);
    await screenshot(page, `layout-${id}-3840`);
  }
  // The messages column and a page's content are capped, centred in the window.
  await goTo(page, 'settings');
  const w = await page.locator('.page').evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(w <= 1300, `the Settings page is ${w}px wide at 3840px`);
  await goTo(page, 'chat');
  const m = await page.locator('.chat-main').evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(m <= 1200, `the chat column is ${m}px wide at 3840px`);
  assert.deepEqual(errors.map(String), []);
});

// The welcome page, shown by an app of its own on a fresh data dir (the shared one is set up already).
test('the welcome page at every width', async () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-layout-'));
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const app = await startOwnApp({
    browser,
    dataDir,
    env: { HOME: path.join(tmp, 'home'), XDG_CONFIG_HOME: path.join(tmp, 'home', '.config'), XDG_DATA_HOME: path.join(tmp, 'share'), OLLAMA_HOST: '127.0.0.1:9' },
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(app.url);
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await noOverflow(page, `the welcome page at ${width}px`);
      await screenshot(page, `layout-welcome-${width}`);
    }
    await page.close();
  } finally {
    await app.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
