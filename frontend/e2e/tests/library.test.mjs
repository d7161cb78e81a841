// Agents and the server library, in the real app with real npm servers and
// the fake model provider: server details and the tag filter, a test
// connection with its timing, adding a server from a template (bad
// parameters first), and an agent with two servers in delegate mode whose
// sub-agents' steps show nested under their cards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chatControls, env, launch, modelRequests as requests, resetModel, screenshot, scriptModel as script, sharedApp, tempDir, serverAction } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const row = (page, name) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

async function setDetails(page, name, { description, tags }) {
  const r = row(page, name);
  await serverAction(r, 'Details');
  const form = page.getByRole('form', { name: `Details of ${name}` });
  await form.getByLabel('Description').fill(description);
  await form.getByLabel('Tags').fill(tags);
  await form.getByRole('button', { name: 'Save details' }).click();
  await form.waitFor({ state: 'detached' });
  await r.getByText(description).waitFor();
}

test('servers carry details, filter by tag and search, and test their connection', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await row(page, 'everything').locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await row(page, 'memory').locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  await setDetails(page, 'everything', { description: 'Reference server for trying things', tags: 'testing, demo' });
  await setDetails(page, 'memory', { description: 'Knowledge graph the model keeps', tags: 'notes' });
  assert.match(await row(page, 'memory').innerText(), /notes/);

  // Filter by tag: only the tagged server is left; "All" brings the rest back.
  const filter = page.getByRole('group', { name: 'Filter by tag' });
  await filter.getByRole('button', { name: 'notes', exact: true }).click();
  await row(page, 'everything').waitFor({ state: 'detached' });
  const names = await page.getByRole('list', { name: 'Servers' }).getByRole('listitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.deepEqual(names, ['memory']);
  assert.equal(await filter.getByRole('button', { name: 'notes', exact: true }).getAttribute('aria-pressed'), 'true');
  await screenshot(page, 'library-filter-tag');
  await filter.getByRole('button', { name: 'All' }).click();
  // Search by text: the description matches too.
  await page.getByLabel('Search servers').fill('reference');
  await row(page, 'memory').waitFor({ state: 'detached' });
  await row(page, 'everything').waitFor();
  await page.getByLabel('Search servers').fill('');

  // Test connection: each step timed; a broken server says which step failed.
  await row(page, 'everything').getByRole('button', { name: 'Test connection' }).click();
  const report = page.getByRole('status', { name: 'Test of everything' });
  await report.getByText(/^Connected in \d/).waitFor({ timeout: 60_000 });
  for (const step of ['start', 'initialize', 'tools/list']) {
    assert.match(await report.getByRole('row', { name: new RegExp(`^${step}`) }).innerText(), /\d+(\.\d)? (ms|s)\s+ok/);
  }
  assert.match(await report.innerText(), /tools/);
  await screenshot(page, 'library-test-connection');
  await row(page, 'broken').getByRole('button', { name: 'Test connection' }).click();
  const bad = page.getByRole('status', { name: 'Test of broken' });
  await bad.getByText('Failed at start').waitFor();
  assert.match(await bad.innerText(), /switchboard-e2e-no-such-command was not found: install it, or give its full path as the command in Edit/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a server is added from a template; bad parameters are refused first', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Add from template…' }).click();
  const picker = page.getByRole('dialog', { name: 'Add from template' });
  for (const t of ['Filesystem', 'Memory', 'Fetch', 'Git', 'GitHub', 'Everything']) {
    await picker.getByRole('button', { name: `Template ${t}`, exact: true }).waitFor();
  }
  await picker.getByRole('button', { name: 'Template Filesystem', exact: true }).click();
  const form = picker.getByRole('form', { name: 'Add Filesystem' });
  await form.getByLabel('Server name').fill('docs');
  await form.getByRole('button', { name: 'Add server' }).click();
  await form.getByText('Folder is required').waitFor(); // the form refuses it before asking the Go side
  await form.getByLabel(/^Folder/).fill('relative/dir');
  await form.getByRole('button', { name: 'Add server' }).click();
  await form.getByRole('alert').getByText(/"relative\/dir"/).waitFor();
  await screenshot(page, 'library-template-error');
  const dir = tempDir('sb-docs-');
  await form.getByLabel(/^Folder/).fill(dir);
  await form.getByRole('button', { name: 'Add server' }).click();
  await picker.waitFor({ state: 'detached' });
  const docs = row(page, 'docs');
  await docs.waitFor();
  assert.match(await docs.innerText(), new RegExp(`npx -y @modelcontextprotocol/server-filesystem ${dir}`));
  assert.match(await docs.innerText(), /files/, 'the template tags the server');
  // Remove it again (with the confirmation) so the other tests see the usual set.
  await serverAction(docs, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove docs?' }).getByRole('button', { name: 'Remove' }).click();
  await docs.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('an agent with two servers delegates, and its sub-agents\' steps show nested', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/agents' });
  await page.getByRole('button', { name: 'New agent' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByLabel('Name').fill('Researcher');
  await form.getByLabel('Description').fill('Echoes things and remembers them');
  await form.getByLabel('System prompt').fill('You research and keep notes.');
  await form.getByRole('checkbox', { name: /^everything/ }).check();
  await form.getByRole('checkbox', { name: /^memory/ }).check();
  await form.getByLabel('Approval for memory').selectOption('allow');
  await form.getByRole('checkbox', { name: /^Delegate/ }).check();
  await screenshot(page, 'library-agent-form');
  await form.getByRole('button', { name: 'Save agent' }).click();
  const agent = page.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: 'Researcher' });
  await agent.waitFor();
  assert.match(await agent.innerText(), /delegate/);
  assert.match(await agent.getByLabel('Servers of Researcher').innerText(), /everything\s*memory/);

  await script(
    { toolCalls: [{ id: 'a1', name: 'ask_everything', arguments: '{"query":"echo the word kiwi"}' }] },
    { toolCalls: [{ id: 's1', name: 'everything__echo', arguments: '{"message":"kiwi"}' }] },
    { text: 'The echo tool said: Echo: kiwi' },
    { toolCalls: [{ id: 'a2', name: 'ask_memory', arguments: '{"query":"remember that kiwi was echoed","context":"Echo: kiwi"}' }] },
    { toolCalls: [{ id: 's2', name: 'memory__create_entities', arguments: '{"entities":[{"name":"kiwi","entityType":"word","observations":["was echoed"]}]}' }] },
    { text: 'Saved kiwi in the graph.' },
    { text: 'Done: I echoed **kiwi** and remembered it.' },
  );
  await agent.getByRole('button', { name: 'Start chat' }).click();
  await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
  await page.getByLabel('Agent Researcher').waitFor();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Echo kiwi and remember it');
  await box.press('Enter');
  await page.getByText('Done: I echoed').waitFor();
  await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).last().waitFor();

  // Two delegated cards, each with its sub-agent's step nested under it
  // (read back from history once the turn is done).
  const cards = page.getByTestId('tool-card');
  await page.getByRole('list', { name: 'Steps of ask_memory' }).getByTestId('sub-step').waitFor();
  assert.equal(await cards.count(), 2);
  const everythingSteps = page.getByRole('list', { name: 'Steps of ask_everything' });
  assert.match(await everythingSteps.innerText(), /everything\s*echo\s*done/);
  assert.match(await page.getByRole('list', { name: 'Steps of ask_memory' }).innerText(), /memory\s*create_entities\s*done/);
  await everythingSteps.getByTestId('sub-step').getByRole('button').first().click();
  await everythingSteps.getByText('Echo: kiwi').waitFor();
  await screenshot(page, 'library-agent-nested-steps');

  // The main model saw one tool per server; each sub-agent only its server's tools.
  const reqs = await requests();
  const toolsOf = (r) => (r.tools ?? []).map((t) => t.function?.name ?? t.name);
  assert.deepEqual(toolsOf(reqs[0]).sort(), ['ask_everything', 'ask_memory']);
  assert.ok(JSON.stringify(reqs[0]).includes('You research and keep notes.'), 'the agent prompt was sent');
  assert.ok(toolsOf(reqs[1]).length > 3 && toolsOf(reqs[1]).every((n) => n.startsWith('everything__')), `sub-agent tools: ${toolsOf(reqs[1])}`);
  assert.ok(toolsOf(reqs[4]).every((n) => n.startsWith('memory__')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a profile gives a server another URL, switched for every server in one place', async () => {
  const { page, errors } = await sharedApp(browser, { hash: '#/servers' });
  // A remote server (server-everything over Streamable HTTP) through the import wizard.
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  await wizard.getByLabel('Config JSON').fill(JSON.stringify({ mcpServers: { api: { url: env('E2E_REMOTE_URL') } } }));
  await wizard.getByRole('table', { name: 'Import preview' }).locator('tr[data-outcome="added"]').waitFor();
  await wizard.getByRole('button', { name: 'Import 1 server' }).click();
  const api = row(page, 'api');
  await api.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  // Its "work" profile points at another address (nothing listens there).
  const elsewhere = 'http://127.0.0.1:9/mcp';
  await serverAction(api, 'Details');
  const profiles = api.getByRole('group', { name: 'Profiles of api' });
  await profiles.getByLabel('New profile name').fill('work');
  await profiles.getByRole('button', { name: 'Add profile' }).click();
  const work = profiles.getByRole('group', { name: 'Profile work' });
  await work.getByLabel('URL').fill(elsewhere);
  await work.getByRole('button', { name: 'Save work' }).click();
  await work.getByRole('status').getByText('Saved').waitFor();
  await api.getByRole('button', { name: 'Cancel' }).click();

  // Switching the profile reconnects the server to the other URL; back to none, it is ready again.
  const menu = page.getByLabel('Profile', { exact: true });
  await menu.selectOption('work');
  await api.locator('.server-cmd').getByText(elsewhere, { exact: true }).waitFor();
  await api.locator('[data-state="error"], [data-state="restarting"]').first().waitFor({ timeout: 30_000 });
  await screenshot(page, 'library-profile-work');
  await menu.selectOption('');
  await api.locator('.server-cmd').getByText(env('E2E_REMOTE_URL'), { exact: true }).waitFor();
  await api.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });

  await serverAction(api, 'Remove');
  await page.getByRole('alertdialog', { name: 'Remove api?' }).getByRole('button', { name: 'Remove' }).click();
  await api.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('above the tool-search threshold the model first gets find_tools and the pinned tools', async () => {
  await resetModel();
  const { page, errors } = await sharedApp(browser, { hash: '#/settings' });
  const form = page.getByRole('form', { name: 'Tool search' });
  await form.getByRole('radio', { name: 'Search by count' }).check();
  await form.getByLabel('Tool count').fill('5');
  await form.getByLabel(/Always offer these tools/).fill('everything__echo');
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').getByText('Saved').waitFor();

  await script(
    { toolCalls: [{ id: 'f1', name: 'find_tools', arguments: '{"query":"add two numbers"}' }] },
    { toolCalls: [{ id: 'c1', name: 'everything__get-sum', arguments: '{"a":2,"b":3}' }] },
    { text: 'The sum is 5.' },
  );
  await page.goto(`${env('E2E_URL')}/#/chat`);
  await page.getByRole('button', { name: 'New chat' }).click();
  // The chat's Tools menu says search is on, and why.
  await chatControls(page);
  await page.getByRole('button', { name: /^Tools: \d+/ }).click();
  const why = page.getByRole('dialog', { name: 'Tools for this chat' }).getByRole('note', { name: 'Tool search' });
  await why.getByText(/Tool search is on: \d+ tools, more than the 5 set in Settings/).waitFor();
  await screenshot(page, 'library-tool-search-why');
  await page.keyboard.press('Escape'); // the Tools popover
  if (await page.getByRole('dialog', { name: 'Chat options' }).count()) await page.keyboard.press('Escape');
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('What is 2 + 3?');
  await box.press('Enter');
  await page.getByText('The sum is 5.').waitFor();
  const cards = page.getByTestId('tool-card');
  await cards.first().getByText('find_tools').waitFor();
  await cards.first().getByRole('button').first().click();
  await cards.first().getByText(/everything__get-sum/).first().waitFor(); // the result text (the JSON tree has it too)
  await screenshot(page, 'library-find-tools');

  const reqs = await requests();
  const toolsOf = (r) => (r.tools ?? []).map((t) => t.function?.name ?? t.name);
  assert.deepEqual(toolsOf(reqs[0]), ['find_tools', 'everything__echo'], 'first step: the search tool and the pinned one');
  assert.ok(toolsOf(reqs[1]).includes('everything__get-sum'), `after find_tools: ${toolsOf(reqs[1])}`);
  assert.ok(toolsOf(reqs[1]).length <= 7);

  // Back to the default for the other tests, once the saved settings
  // show (until they load, the form shows the defaults, where checking
  // "by size" and clearing the list would change nothing).
  await page.goto(`${env('E2E_URL')}/#/settings`);
  await form.getByRole('radio', { name: 'Search by count', checked: true }).waitFor();
  await form.getByRole('radio', { name: 'Search by size' }).check();
  await form.getByLabel(/Always offer these tools/).fill('');
  await page.getByRole('button', { name: 'Save changes' }).click(); // the Settings page's one Save
  await form.getByRole('status').getByText('Saved').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
