// A remote server that needs an OAuth login shows the Log in button; logging
// in through the browser makes it ready.
//
// The server is an MCP endpoint with its own authorization server (metadata,
// dynamic registration, PKCE-checking token endpoint), run by this test on
// 127.0.0.1. The app opens the login page with xdg-open; this test points
// xdg-open (through the app's private XDG dirs, which run.mjs gives this
// process too) at a stand-in browser that records the URL, then opens that
// URL in Playwright's browser as the user would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, screenshot, standInBrowser } from '../lib.mjs';
import { protectedServer } from '../oauthserver.mjs';

let browser;
let server;
let base;
let standIn;

before(async () => {
  standIn = standInBrowser();
  ({ server, base } = await protectedServer({ name: 'locked' }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
  standIn?.uninstall();
});

test('a server that needs login shows Log in, and logging in makes it ready', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  await wizard.getByLabel('Config JSON').fill(JSON.stringify({ mcpServers: { locked: { url: `${base}/mcp` } } }, null, 2));
  await wizard.getByRole('table', { name: 'Import preview' }).locator('tr[data-outcome="added"]').waitFor();
  await wizard.getByRole('button', { name: 'Import 1 server' }).click();
  await wizard.getByText(/^Imported 1 server:/).waitFor();
  await wizard.getByRole('button', { name: 'Close', exact: true }).click();

  const row = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'locked', exact: true });
  await row.locator('[data-state="needs-login"]').waitFor({ timeout: 60_000 });
  const login = row.getByRole('button', { name: 'Log in' });
  assert.ok(await login.isVisible(), 'the Log in button is shown');
  assert.match(await row.innerText(), /switchboard servers login locked/);
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'login-needed');

  await login.click();
  const authURL = new URL(await standIn.recordedURL(30_000));
  assert.equal(authURL.origin + authURL.pathname, `${base}/authorize`);
  assert.equal(authURL.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(authURL.searchParams.get('resource'), `${base}/mcp`);
  assert.match(authURL.searchParams.get('redirect_uri'), /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  // While it waits, the row offers the same page as a link, for when no browser opens.
  const link = row.getByRole('link', { name: 'Open the login page' });
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), authURL.toString());
  assert.equal(await row.getByRole('button', { name: 'Logging in…' }).isDisabled(), true);
  await screenshot(page, 'login-waiting');

  // The user's browser: the authorization server approves and redirects back.
  const tab = await browser.newPage();
  await tab.goto(authURL.toString());
  await tab.getByRole('heading', { name: 'Logged in to locked' }).waitFor();
  await screenshot(tab, 'login-callback');
  await tab.close();

  await row.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  assert.match(await row.innerText(), /\b1 tool\b/);
  assert.equal(await row.getByRole('button', { name: 'Log in' }).count(), 0);
  await screenshot(page, 'login-ready');
  assert.deepEqual(errors, []);
  await page.close();
});
