// A remote server whose authorization server refuses dynamic registration:
// Log in says to add the client Switchboard was registered as; the OAuth
// client form under Details takes it (the secret goes to the keyring), and
// the next login uses it, its secret sent to the token endpoint with Basic
// authentication, the answer's RFC 9207 issuer checked.
//
// The server (an MCP endpoint and its authorization server) runs in this
// test on 127.0.0.1; xdg-open is pointed at a stand-in browser that records
// the URL, which the test then opens in Playwright's browser as a user would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, screenshot, standInBrowser, serverAction } from '../lib.mjs';
import { protectedServer } from '../oauthserver.mjs';

const CLIENT_ID = 'switchboard-e2e-registered';
const SECRET = 'e2e-client-SECRET-7731';

let browser;
let server;
let base;
let standIn;

before(async () => {
  standIn = standInBrowser();
  ({ server, base } = await protectedServer({ name: 'vault', client: { id: CLIENT_ID, secret: SECRET }, iss: true, scope: 'vault:read' }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
  standIn?.uninstall();
});

test('a server that refuses registration logs in with the client entered under Details', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/servers' });
  await page.getByRole('button', { name: 'Import…' }).click();
  const wizard = page.getByRole('region', { name: 'Import servers' });
  await wizard.getByLabel('Config JSON').fill(JSON.stringify({ mcpServers: { vault: { url: `${base}/mcp` } } }, null, 2));
  await wizard.getByRole('table', { name: 'Import preview' }).locator('tr[data-outcome="added"]').waitFor();
  await wizard.getByRole('button', { name: 'Import 1 server' }).click();
  await wizard.getByText(/^Imported 1 server:/).waitFor();
  await wizard.getByRole('button', { name: 'Close', exact: true }).click();

  const row = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'vault', exact: true });
  await row.locator('[data-state="needs-login"]').waitFor({ timeout: 60_000 });

  // Without a client: the login fails before any browser, saying what to add.
  await row.getByRole('button', { name: 'Log in' }).click();
  await row.getByRole('alert').getByText(/offers no dynamic client registration.*Details → OAuth client.*"oauth": \{"clientId"/).waitFor({ timeout: 30_000 });
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'oauthclient-no-registration');

  // Details → OAuth client: a bad port is refused in the form, then the
  // client is saved; the secret leaves the field.
  await serverAction(row, 'Details');
  const form = row.getByRole('form', { name: 'OAuth client of vault' });
  await form.getByLabel('Client ID').fill(CLIENT_ID);
  await form.getByLabel(/Client secret/).fill(SECRET);
  await form.getByLabel('Redirect port').fill('99999');
  await form.getByRole('button', { name: 'Save OAuth client' }).click();
  await form.getByRole('alert').getByText(/whole number from 1 to 65535/).waitFor();
  await form.getByLabel('Redirect port').fill('');
  await form.getByLabel(/Scopes/).fill('vault:read');
  await form.getByRole('button', { name: 'Save OAuth client' }).click();
  await form.getByRole('status').getByText('Saved; the server restarts, and its next login uses this client.').waitFor();
  // The login's error, which this client fixes, is gone from the row.
  await row.getByText(/offers no dynamic client registration/).waitFor({ state: 'detached' });
  assert.equal(await form.getByLabel(/Client secret/).inputValue(), '');
  await form.getByText(/stored in the keyring/).waitFor();
  await row.locator('[data-state="needs-login"]').waitFor({ timeout: 60_000 });
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await form.scrollIntoViewIfNeeded();
    const wide = await page.evaluate(() => [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((el) => `${el.tagName}.${el.className}`).slice(0, 5));
    assert.deepEqual(wide, [], `nothing sticks out of the window at ${width} px`);
    await screenshot(page, `oauthclient-form-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  assert.ok(!(await page.content()).includes(SECRET), 'the secret is not in the window');

  // A login under way says where it waits and can be cancelled; the row's
  // Log in comes back and the server still needs its login.
  await row.getByRole('button', { name: 'Log in' }).click();
  await standIn.recordedURL(30_000);
  const wait = row.getByRole('status', { name: 'Login to vault' });
  await wait.getByText(/Finish the login in your browser/).waitFor();
  await wait.getByRole('link', { name: 'Open the login page' }).waitFor();
  for (const width of [720, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await wait.scrollIntoViewIfNeeded();
    await screenshot(page, `oauthclient-login-wait-${width}`);
  }
  await page.setViewportSize({ width: 1200, height: 800 });
  await wait.getByRole('button', { name: 'Cancel the login to vault' }).click();
  await wait.waitFor({ state: 'detached' });
  await row.getByRole('button', { name: 'Log in' }).waitFor();
  await row.locator('[data-state="needs-login"]').waitFor();
  standIn.forget();

  // The next login uses the configured client.
  await row.getByRole('button', { name: 'Log in' }).click();
  const authURL = new URL(await standIn.recordedURL(30_000));
  assert.equal(authURL.searchParams.get('client_id'), CLIENT_ID);
  assert.equal(authURL.searchParams.get('scope'), 'vault:read');
  const tab = await browser.newPage();
  await tab.goto(authURL.toString());
  await tab.getByRole('heading', { name: 'Logged in to vault' }).waitFor();
  await tab.close();
  await row.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  assert.match(await row.innerText(), /\b1 tool\b/);
  await screenshot(page, 'oauthclient-ready');
  assert.deepEqual(errors, []);
  await page.close();
});
