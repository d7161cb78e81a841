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
