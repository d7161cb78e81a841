// Layout details at 720, 1280 and 1920 px on every page of gui.Pages: no
// element's text is clipped by its own box, no name is broken mid-word
// (word-break: break-all broke "everything" into "everythin g"), no count
// reads "1 files", and a wide window's page is centred or uses the width
// instead of sitting left with the right third empty. Screenshots:
// layoutpolish-<page>-<width>.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openApp, screenshot } from '../lib.mjs';

// The pages, from the one table (app/gui/shortcuts.go → shortcuts.gen.ts).
const TITLES = Object.fromEntries([...readFileSync(new URL('../../src/shortcuts.gen.ts', import.meta.url), 'utf8')
  .matchAll(/\{ id: "([a-z]+)", title: "([^"]+)" \}/g)].map((m) => [m[1], m[2]]));
const PAGES = Object.keys(TITLES);
const WIDTHS = [720, 1280, 1920];

let browser, shared;
before(async () => { browser = await launch(); });
after(async () => {
  await shared?.page.close();
  await browser?.close();
});

/** sharedApp is the one page the tests run in, one after another (opening one costs seconds). */
async function sharedApp() {
  shared ??= await openApp(browser, { hash: '#/servers' });
  return shared;
}

/** problems lists what a demanding user would flag on the page shown. */
function problems(page) {
  return page.evaluate(() => {
    const out = [];
    const main = document.getElementById('main');
    const pageEl = main.querySelector('.page');
    for (const el of main.querySelectorAll('*')) {
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden') continue;
      if (el.closest('.visually-hidden')) continue; // for screen readers only: clipped on purpose
      const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      if (cs.wordBreak === 'break-all') out.push(`${name}: word-break: break-all breaks words mid-word`);
      // Text clipped by its own box: a label, button or heading whose text is wider than it, hidden.
      const clips = cs.overflowX === 'hidden' || cs.overflowX === 'clip';
      const label = /^(BUTTON|LABEL|H[1-4]|A|TH|LEGEND|SUMMARY)$/.test(el.tagName);
      if (clips && label && cs.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1) out.push(`${name}: text clipped (${el.scrollWidth} > ${el.clientWidth})`);
      // A label or button reaching out of the page sideways.
      if (label && pageEl) {
        const r = el.getBoundingClientRect(), p = pageEl.getBoundingClientRect();
        if (r.width > 0 && (r.right > p.right + 1 || r.left < p.left - 1) && !el.closest('.xterm, [role="dialog"], .drawer')) out.push(`${name}: outside the page (${Math.round(r.left)}–${Math.round(r.right)} vs ${Math.round(p.left)}–${Math.round(p.right)})`);
      }
    }
    const text = main.innerText;
    const one = /(^|[^\d.,])1 (files|tools|servers|documents|folders|skills|chats|specialists|secrets|chunks|entries)\b/.exec(text);
    if (one) out.push(`"${one[0].trim()}" should be singular`);
    return out;
  });
}

/** spread says how the page's content sits in the main area: the gaps left and right of the union of its blocks. */
function spread(page) {
  return page.evaluate(() => {
    const main = document.getElementById('main').getBoundingClientRect();
    const blocks = [...document.querySelectorAll('#main .page > *')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
    const left = Math.min(...blocks.map((r) => r.left)), right = Math.max(...blocks.map((r) => r.right));
    return { width: main.width, left: left - main.left, right: main.right - right };
  });
}

async function goTo(page, id) {
  await page.evaluate((h) => { location.hash = h; }, `#/${id}`);
  await page.waitForFunction((t) => document.getElementById('page-title')?.textContent === t, TITLES[id]);
}

for (const width of WIDTHS) {
  test(`every page at ${width} px: words whole, labels fit, the width used`, async () => {
    const { page, errors } = await sharedApp();
    await page.setViewportSize({ width, height: 900 });
    for (const id of PAGES) {
      await goTo(page, id);
      if (id === 'servers') await page.getByRole('listitem', { name: 'everything', exact: true }).waitFor();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.deepEqual(await problems(page), [], `${id} at ${width}px`);
      if (width >= 1280 && id !== 'chat') {
        const s = spread(page);
        const { width: w, left, right } = await s;
        const centred = Math.abs(left - right) <= 0.12 * w;
        const used = w - left - right >= 0.75 * w;
        assert.ok(centred || used, `${id} at ${width}px sits to one side: ${Math.round(left)} px left, ${Math.round(right)} px right of ${Math.round(w)}`);
      }
      await screenshot(page, `layoutpolish-${id}-${width}`);
    }
    assert.deepEqual(errors, []);
  });
}

// The import preview: server names wrap only between words.
test('the import preview keeps server names whole', async () => {
  const { page, errors } = await sharedApp();
  await page.setViewportSize({ width: 720, height: 900 });
  await goTo(page, 'servers');
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  const broken = await page.evaluate(() => {
    // The import preview's shape: the name first, a long explanation beside it, in a narrow table.
    const probe = document.createElement('table');
    probe.className = 'preview';
    probe.style.width = '300px';
    probe.innerHTML = '<tbody><tr><td>everything</td><td>Will be added, and its API key moved to the keyring where nothing else can read it</td><td><code>npx -y @modelcontextprotocol/server-everything</code></td></tr></tbody>';
    document.getElementById('main').append(probe);
    const range = document.createRange();
    range.selectNodeContents(probe.querySelector('td'));
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    probe.remove();
    return lines;
  });
  assert.equal(broken, 1, '"everything" stays on one line in a narrow preview cell');
  assert.deepEqual(errors, []);
});
