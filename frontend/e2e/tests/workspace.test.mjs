// Workspace: the terminal is attached to the real PTY shell the model uses;
// what the user types runs there, and files it makes show in the tree.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, screenshot, sharedApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a command typed in the terminal runs in the workspace shell', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/workspace' });
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  const term = page.getByTestId('terminal');
  await term.locator('.xterm-rows').waitFor();
  await term.click();
  await page.keyboard.type('echo typed-$((6*7)) > from-terminal.txt && cat from-terminal.txt\n');
  // The shell expanded it: the output, not the typed line, holds "typed-42".
  await term.locator('.xterm-rows', { hasText: 'typed-42' }).waitFor();

  // The file list follows the folder: no Refresh.
  await page.getByRole('list', { name: 'Files' }).getByRole('button', { name: 'from-terminal.txt' }).click();
  await page.getByLabel('File').getByText('typed-42').waitFor();

  // Resizing the window resizes the PTY: stty sees the new width.
  const sttyCols = async (marker) => {
    await term.click();
    await page.keyboard.type(`echo ${marker}-$(stty size | tr ' ' x)\n`);
    const line = term.locator('.xterm-rows > div', { hasText: new RegExp(`^${marker}-\\d+x\\d+`) });
    await line.waitFor();
    return Number(/x(\d+)/.exec(await line.innerText())[1]);
  };
  const before = await sttyCols('narrow');
  await page.setViewportSize({ width: 1600, height: 800 });
  let after = before;
  for (let i = 0; i < 20 && after <= before; i++) after = await sttyCols(`wide${i}`);
  assert.ok(after > before, `the PTY got wider: ${before} → ${after}`);
  await screenshot(page, 'workspace-terminal');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the file list follows the folder without Refresh', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/workspace' });
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  const files = page.getByRole('list', { name: 'Files' });
  const term = page.getByTestId('terminal');
  await term.locator('.xterm-rows').waitFor();
  await term.click();
  const name = `touched-${Date.now()}`;
  await page.keyboard.type(`touch ${name}\n`);
  await files.getByRole('button', { name, exact: true }).waitFor({ timeout: 15000 });
  // In a folder made by the command too, and gone when it is removed.
  await page.keyboard.type(`mkdir -p sub-${name} && touch sub-${name}/inner-${name}\n`);
  await files.getByRole('button', { name: `inner-${name}`, exact: true }).waitFor({ timeout: 15000 });
  await page.keyboard.type(`rm ${name}\n`);
  await files.getByRole('button', { name, exact: true }).waitFor({ state: 'detached', timeout: 15000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// typeIn types a command line into the page's terminal.
async function typeIn(page, line) {
  await page.getByTestId('terminal').click();
  await page.keyboard.type(line);
}

test('the file list and the viewer scroll in their boxes, above the terminal, at every width', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/workspace' });
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  await page.getByTestId('terminal').locator('.xterm-rows').waitFor();
  const dir = `many-${Date.now()}`;
  await typeIn(page, `mkdir ${dir} && for i in $(seq 1 40); do touch ${dir}/f$i.txt; done; seq 1 20000 > ${dir}/big.txt\n`);
  const files = page.getByRole('list', { name: 'Files' });
  await files.getByRole('button', { name: 'big.txt', exact: true }).click();
  const view = page.getByLabel('File', { exact: true });
  await view.getByText('Lines 1–2000 of 20000.').waitFor();
  const heading = page.getByRole('heading', { level: 2, name: 'Terminal' });
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    const box = async (l) => l.evaluate((e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, scroll: e.scrollHeight }; });
    const [list, viewer, head, term] = [await box(files), await box(view), await box(heading), await box(page.getByTestId('terminal'))];
    // Both panes hold more than they show and scroll inside their box.
    assert.ok(viewer.scroll > viewer.bottom - viewer.top + 100, `${width}px: the viewer scrolls (${JSON.stringify(viewer)})`);
    assert.ok(list.bottom <= head.top && viewer.bottom <= head.top, `${width}px: nothing runs over the Terminal heading: list ${JSON.stringify(list)}, viewer ${JSON.stringify(viewer)}, heading ${JSON.stringify(head)}`);
    assert.ok(term.top < 1800, `${width}px: the terminal is ${term.top}px down`);
    await screenshot(page, `workspace-bounded-${width}`);
  }
  // Show more reads on.
  await view.getByRole('button', { name: 'Show more' }).click();
  await view.getByText('Lines 1–4000 of 20000.').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the file list shows odd names as they are, opens deep folders, and names what is no file', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/workspace' });
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  await page.getByTestId('terminal').locator('.xterm-rows').waitFor();
  const dir = `odd-${Date.now()}`;
  await typeIn(page, `mkdir ${dir} && cd ${dir} && echo arrow-$((1+1)) > 'a -> b.txt' && ln -s 'a -> b.txt' link-to && ln -s loop loop && mkfifo pipe-x && mkdir -p d2/d3/d4 && echo deep-$((2+2)) > d2/d3/d4/deep.txt; cd ..\n`);
  const files = page.getByRole('list', { name: 'Files' });
  const view = page.getByLabel('File', { exact: true });
  // A name with an arrow is one file (the tree's text listing quotes it).
  await files.getByRole('button', { name: 'a -> b.txt', exact: true }).click();
  await view.getByText('arrow-2').waitFor();
  await files.getByRole('button', { name: 'link-to', exact: true }).click();
  await view.getByText('arrow-2').waitFor();
  // A FIFO and a link round in a loop are listed, as what they are, not as files to open.
  await files.getByText('(named pipe)').waitFor();
  assert.equal(await files.getByRole('button', { name: 'pipe-x' }).count(), 0);
  assert.equal(await files.getByRole('button', { name: /^loop/ }).count(), 0);
  await files.getByText('(link not followed)').first().waitFor();
  // Below the tree's depth (4 levels), a folder opens on a click.
  const d4 = files.getByRole('button', { name: 'd4/', exact: true });
  assert.equal(await d4.getAttribute('aria-expanded'), 'false');
  await d4.click();
  await files.getByRole('button', { name: 'deep.txt', exact: true }).click();
  await view.getByText('deep-4').waitFor();
  await screenshot(page, 'workspace-odd-names');
  assert.deepEqual(errors, []);
  await page.close();
});

test('opening the page again types no terminal answers into the shell', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/workspace' });
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  const rows = () => page.getByTestId('terminal').locator('.xterm-rows');
  await rows().waitFor();
  // ESC [ c asks the terminal who it is; xterm.js answers "ESC [?1;2c".
  // Printed once, it is in the history every new page replays.
  // The sum is outside the quotes, so only the output reads QQ-7; read
  // takes the live page's own answer (up to its final c), as a program
  // asking would, so only a replay's answers could reach the prompt.
  await typeIn(page, "printf 'Q\\033[cQ-%d\\n' $((3+4)); read -rs -t 2 -d c _\n");
  await rows().filter({ hasText: 'QQ-7' }).waitFor();
  for (let i = 0; i < 2; i++) {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
    await rows().filter({ hasText: 'QQ-7' }).waitFor(); // the history was replayed
  }
  await typeIn(page, 'echo clean-$((2+3))\n');
  await rows().filter({ hasText: 'clean-5' }).waitFor();
  const text = await rows().innerText();
  assert.ok(!text.includes('1;2c') && !text.includes('command not found'), `the replay's answers reached the shell:\n${text}`);
  assert.deepEqual(errors, []);
  await page.close();
});
