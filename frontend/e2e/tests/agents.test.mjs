// The Agents page in a private copy of the app with a throw-away HOME
// holding Claude Code's agent files (~/.claude/agents): an agent naming a
// server that is not set up is marked on its row, in its form (where it can
// be unticked) and in its chats' header; a gone provider shows as such;
// Duplicate saves a copy; Import… lists the agent files with what does not
// carry over and imports the one that can be; a 64-character name wraps on
// its row and ends in "…" in the chat header, whose "⋯" stays on screen.
// Screenshots at 720, 1280 and 1920 px: agents-<width>-<step>.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, screenshot, startOwnApp } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const SIZES = [[720, 700], [1280, 800], [1920, 1080]];
const LONG = 'R'.repeat(64); // the longest name, unbroken

const reviewer = `---
name: code-reviewer
description: Reviews recent changes for bugs, risky patterns and unclear names.
tools: Read, Grep, WebFetch, mcp__alpha__diff
model: sonnet
color: blue
---

You are a careful code reviewer. Name the most serious problem first.
`;

test('agents at 720, 1280 and 1920: missing servers and provider marked, duplicate, import from Claude Code, a long name', async () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-agents-'));
  const home = path.join(tmp, 'home');
  const agentsDir = path.join(home, '.claude', 'agents');
  mkdirSync(agentsDir, { recursive: true });
  writeFileSync(path.join(agentsDir, 'code-reviewer.md'), reviewer);
  writeFileSync(path.join(agentsDir, 'README.md'), '# Our agents\n');
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({
    mcpServers: { alpha: { command: 'alpha-mcp', disabled: true } },
    settings: {
      chat: {
        providers: [{ name: 'Fake', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', defaultModel: 'fake-model' }],
        defaultProvider: 'Fake',
        agents: [
          { id: 'd1', name: 'Deleg', system: 'You delegate.', servers: ['alpha', 'beta'], delegate: true, toolMode: 'code' },
          { id: 'g1', name: 'Ghost', servers: [], provider: 'Removed', model: 'gone' },
          { id: 'l1', name: LONG, servers: [] },
        ],
      },
    },
  }, null, 2));
  const app = await startOwnApp({
    browser, dataDir,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(tmp, 'share'), OLLAMA_HOST: '127.0.0.1:9' },
  });
  const page = await browser.newPage({ viewport: { width: SIZES[0][0], height: SIZES[0][1] } });
  const errors = [];
  page.on('pageerror', (e) => { if (!String(e.stack).includes('/wails/ipc.js')) errors.push(e); });
  let step = 0;
  // shot saves the page at every width (none scrolling sideways), then
  // leaves the window at the width the next step's clicks are made at.
  const shot = async (name, check = async () => {}) => {
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(scroll <= 0, `${name}: the page scrolls sideways by ${scroll}px at ${width}px`);
      await check(width);
      await screenshot(page, `agents-${width}-${name}`);
    }
    step++;
    const [width, height] = SIZES[step % SIZES.length];
    await page.setViewportSize({ width, height });
  };
  const list = page.getByRole('list', { name: 'Agents' });
  const row = (name) => list.getByRole('listitem', { name, exact: true });
  try {
    await page.goto(app.url + '/');
    await page.waitForFunction(() => typeof window.go?.gui?.AgentsPage?.FindAgentFiles === 'function');
    await page.evaluate(() => window.go.gui.WelcomePage.FinishWelcome());
    await page.goto(app.url + '/#/agents');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();

    // The server Deleg names that is not set up, and Ghost's gone provider, are marked.
    await row('Deleg').getByText('beta (not set up)').waitFor();
    assert.match(await row('Ghost').innerText(), /provider Removed not set up/);
    await shot('1-marks', async () => {
      // The 64-character name wraps inside its row: the row's buttons stay on screen.
      const box = await row(LONG).getByRole('button', { name: 'Delete' }).boundingBox();
      const width = page.viewportSize().width;
      assert.ok(box && box.x + box.width <= width, `the long-named row's Delete is off screen at ${width}px`);
    });

    // Its form lists the missing server, ticked, so it can be unticked; tool mode is greyed out (delegate).
    await row('Deleg').getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit Deleg' });
    const beta = form.getByRole('checkbox', { name: /^beta not set up/ });
    assert.equal(await beta.isChecked(), true);
    assert.equal(await form.getByLabel('Tool mode').isDisabled(), true);
    await form.getByText('the tool mode does not apply').waitFor();
    await shot('2-form-missing');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Ghost's form shows its provider as not set up, not as the default.
    await row('Ghost').getByRole('button', { name: 'Edit' }).click();
    const ghost = page.getByRole('form', { name: 'Edit Ghost' });
    await ghost.getByText('The provider Removed is not set up').waitFor();
    assert.equal(await ghost.getByLabel('Provider').evaluate((s) => s.selectedOptions[0].textContent), 'Removed (not set up)');
    await shot('3-form-provider');
    await ghost.getByRole('button', { name: 'Cancel' }).click();

    // Duplicate saves a copy and opens it.
    await row('Deleg').getByRole('button', { name: 'Duplicate' }).click();
    const copy = page.getByRole('form', { name: 'Edit Deleg copy' });
    await copy.waitFor();
    await copy.getByRole('button', { name: 'Save agent' }).click();
    await copy.waitFor({ state: 'detached' });
    await row('Deleg copy').getByText('beta (not set up)').waitFor();
    await shot('4-duplicated');

    // Import… lists Claude Code's agent files with their notes, and imports the one that can be.
    await page.getByRole('button', { name: 'Import…' }).click();
    const files = page.getByRole('list', { name: 'Agent files' });
    await files.waitFor();
    const notes = await files.getByLabel('Notes on code-reviewer').innerText();
    assert.match(notes, /WebFetch is Claude Code's own/);
    assert.match(notes, /model "sonnet"/);
    assert.match(await files.innerText(), /Skipped: it has no frontmatter/);
    await shot('5-import-list');
    await page.getByRole('button', { name: 'Import 1 agent' }).click();
    await page.getByText('Imported 1 agent.').waitFor();
    await row('code-reviewer').waitFor();
    assert.match(await row('code-reviewer').getByLabel('Servers of code-reviewer').innerText(), /workspace\s*alpha/);
    await shot('6-imported');
    await page.getByRole('button', { name: 'Close' }).click();

    // A chat of Deleg says which of its servers are not set up.
    await row('Deleg').getByRole('button', { name: 'Start chat' }).click();
    await page.getByLabel('Agent Deleg').waitFor();
    await page.getByRole('note', { name: 'Agent servers not set up' }).getByText(/beta is not set up/).waitFor();
    await shot('7-chat-missing');

    // A chat of the long-named agent: the header's badge ends in "…", its "⋯" stays on screen.
    await page.goto(app.url + '/#/agents');
    await row(LONG).getByRole('button', { name: 'Start chat' }).click();
    await page.getByLabel(`Agent ${LONG}`).waitFor();
    await shot('8-chat-longname', async (width) => {
      // The header's controls, or in a narrow header its "⋯" (Chat options), stay on screen.
      const control = page.getByRole('button', { name: /^(Chat options|Tools: .*)$/ }).first();
      await control.waitFor();
      const box = await control.boundingBox();
      assert.ok(box && box.x + box.width <= width, `the chat header's controls are off screen at ${width}px`);
      const badge = await page.getByLabel(`Agent ${LONG}`).boundingBox();
      assert.ok(badge && badge.x + badge.width <= width, `the agent badge runs off screen at ${width}px`);
    });
    // The chat list shows the agent under the open (untitled) chat; Deleg's
    // chat, left without a message, was a draft and is gone.
    await page.setViewportSize({ width: 1280, height: 800 });
    const chats = page.getByRole('navigation', { name: 'Chats' });
    await chats.locator('.chat-item-agent', { hasText: LONG.slice(0, 12) }).first().waitFor();
    assert.equal(await chats.locator('.chat-item-agent', { hasText: 'Deleg' }).count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await app.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
