// Skills from servers (the io.modelcontextprotocol/skills extension) in the
// window: a server's skills are listed in its Details (name, description,
// size, an on/off switch), and in a chat the model loads one through
// load_skill: its card says which skill of which server was loaded, and a
// skill whose SKILL.md is not what the server listed is refused, saying why.
// the testserver in mode modernserver serves the skills; -corrupt-skill serves
// its haiku skill tampered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env, launch, modelRequests, resetModel, screenshot, scriptModel as script, sharedApp, testServer, untilInPage, serverAction } from '../lib.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-skills-'));
let browser;
before(async () => {
  browser = await launch();
  const bin = path.join(tmp, 'modernserver');
  // The testserver serves the mode it is named after (modernserver).
  testServer(bin);
  const sb = env('SWITCHBOARD_BIN');
  execFileSync(sb, ['--data-dir', env('E2E_DATA_DIR'), 'servers', 'add', 'handbook', '--', bin], { encoding: 'utf8' });
  execFileSync(sb, ['--data-dir', env('E2E_DATA_DIR'), 'servers', 'add', 'shady', '--', bin, '-corrupt-skill'], { encoding: 'utf8' });
});
after(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test("a server's skills in its Details, switched off there, and loaded by the model in a chat", async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  const row = page.getByRole('listitem', { name: 'handbook' });
  await row.getByText('MCP 2026-07-28').waitFor({ timeout: 60_000 });
  await serverAction(row, 'Details');
  const skills = row.getByRole('group', { name: 'Skills of handbook' });
  await skills.waitFor({ timeout: 30_000 });
  const text = await skills.innerText();
  assert.match(text, /release-notes/);
  assert.match(text, /Write release notes from a list of changes, in the house style/);
  assert.match(text, /350 B in 2 files/);
  assert.match(text, /haiku/);
  const haiku = skills.getByRole('switch', { name: 'Skill haiku of handbook' });
  assert.equal(await haiku.isChecked(), true);
  await haiku.click();
  await untilInPage(page, async () => !(await window.go.gui.ServersPage.ServerSkills('handbook')).skills.find((s) => s.name === 'haiku').on,
    null, { what: "handbook's haiku skill switched off" });
  await skills.getByText('· off').waitFor();
  assert.equal(await haiku.isChecked(), false);
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await skills.scrollIntoViewIfNeeded();
    await screenshot(page, `skills-server-details-${width}`);
  }

  await page.goto(page.url().replace(/#.*$/, '#/chat'));
  await untilInPage(page, async () => (await window.go.gui.ServersPage.ServerSkills('shady')).offered, null, { timeout: 60_000, what: "shady's skills" });
  await page.getByRole('button', { name: 'New chat' }).click();
  // Both servers list release-notes (so each is server/name); handbook's
  // haiku is off, so shady's keeps its own name unless another server of
  // this run (modern.test's bistro) has one on too.
  const haikus = await page.evaluate(async () => {
    let n = 0;
    for (const s of await window.go.gui.ServersPage.Servers()) {
      if (s.state !== 'ready') continue;
      const l = await window.go.gui.ServersPage.ServerSkills(s.name);
      n += l.skills.filter((k) => k.name === 'haiku' && k.on).length;
    }
    return n;
  });
  const haikuName = haikus > 1 ? 'shady/haiku' : 'haiku';
  await script(
    { toolCalls: [{ id: 'call_s1', name: 'load_skill', arguments: '{"name":"handbook/release-notes"}' }] },
    { toolCalls: [{ id: 'call_s2', name: 'load_skill', arguments: JSON.stringify({ name: haikuName }) }] },
    { text: 'Release notes, in the house style. The haiku skill was refused: its content did not match.' },
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Write the release notes for 1.2, then a haiku about it');
  await box.press('Enter');
  await page.getByText('The haiku skill was refused').waitFor({ timeout: 30_000 });

  const lines = page.getByTestId('skill-loaded');
  assert.equal(await lines.count(), 2);
  assert.equal(await lines.nth(0).innerText(), 'Loaded skill release-notes from handbook');
  // The card names the skill as the model asked for it (haiku, or shady/haiku).
  assert.match(await lines.nth(1).innerText(), new RegExp(`^Skill ${haikuName} was not loaded: shady: skill haiku: SKILL\\.md: verification failed: \\d+ bytes read, the listing says \\d+`));

  const reqs = await modelRequests();
  const offered = reqs[0].tools.find((t) => t.function.name === 'load_skill').function;
  const names = offered.parameters.properties.name.enum;
  for (const n of ['handbook/release-notes', 'shady/release-notes', haikuName]) assert.ok(names.includes(n), `load_skill offers ${n}: ${names}`);
  assert.ok(!names.includes('handbook/haiku'), 'a skill switched off is not offered');
  assert.match(offered.description, /Write release notes from a list of changes, in the house style/);
  assert.doesNotMatch(JSON.stringify(reqs[0].messages), /Group the changes/, 'nothing of a skill reaches the model before it loads it');
  const loaded = reqs[1].messages.filter((m) => m.role === 'tool').pop();
  assert.match(typeof loaded.content === 'string' ? loaded.content : JSON.stringify(loaded.content), /Group the changes under Added, Changed and Fixed\./);

  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await lines.nth(0).scrollIntoViewIfNeeded();
    await screenshot(page, `skills-chat-cards-${width}`);
  }
  // Opened, the loaded skill's card shows what the model got: its SKILL.md.
  const card = page.getByTestId('tool-card').filter({ hasText: 'Loaded skill release-notes from handbook' });
  await card.getByRole('button', { name: /load_skill done/ }).click();
  assert.match(await card.innerText(), /Group the changes under Added, Changed and Fixed\./);
  assert.doesNotMatch(await card.innerText(), /Structured output/, 'the card says which skill in words, not as a JSON tree');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'skills-chat-card-open-1280');
  assert.deepEqual(errors, []);
  await page.close();
});

test("an agent narrowed to one of its server's skills offers only that one", async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/agents' });
  await page.getByRole('button', { name: 'New agent' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByLabel('Name').fill('Writer');
  await form.getByRole('checkbox', { name: /^shady\b/ }).check();
  await form.getByText(/Only some skills \(all chosen\)/).click();
  await form.getByRole('checkbox', { name: 'release-notes', exact: true }).check();
  await form.getByText(/Only some skills \(1 chosen\)/).waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await form.getByText(/Only some skills/).scrollIntoViewIfNeeded();
    await screenshot(page, `skills-agent-form-${width}`);
  }
  await form.getByRole('button', { name: 'Save agent' }).click();
  const agent = page.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: 'Writer' });
  await agent.waitFor();

  await script({ text: 'Ready when you are.' });
  await agent.getByRole('button', { name: 'Start chat' }).click();
  await page.getByLabel('Agent Writer').waitFor();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Which skills do you have?');
  await box.press('Enter');
  await page.getByText('Ready when you are.').waitFor();
  const reqs = await modelRequests();
  const offered = reqs[reqs.length - 1].tools.find((t) => t.function.name === 'load_skill').function;
  assert.deepEqual(offered.parameters.properties.name.enum, ['release-notes'], "only the chosen skill of the agent's one server");
  assert.doesNotMatch(offered.description, /haiku/);
  assert.deepEqual(errors, []);
  await page.close();
});
