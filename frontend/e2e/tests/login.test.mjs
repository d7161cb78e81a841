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
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { launch, openApp, screenshot, standInBrowser } from '../lib.mjs';

let browser;
let server;
let base;
let standIn;

before(async () => {
  standIn = standInBrowser();
  ({ server, base } = await protectedServer());
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
  assert.match(await row.innerText(), /1 tools/);
  assert.equal(await row.getByRole('button', { name: 'Log in' }).count(), 0);
  await screenshot(page, 'login-ready');
  assert.deepEqual(errors, []);
  await page.close();
});

// protectedServer is an MCP server that answers only with a token from its
// own authorization server; it checks PKCE (S256) and the resource parameter.
function protectedServer() {
  let challenge = '';
  let token = '';
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const b = `http://127.0.0.1:${srv.address().port}`;
      const url = new URL(req.url, b);
      const json = (code, v, headers = {}) => {
        res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(v));
      };
      switch (`${req.method} ${url.pathname}`) {
        case 'GET /.well-known/oauth-protected-resource/mcp':
          return json(200, { resource: `${b}/mcp`, authorization_servers: [b] });
        case 'GET /.well-known/oauth-authorization-server':
          return json(200, {
            issuer: b, authorization_endpoint: `${b}/authorize`, token_endpoint: `${b}/token`,
            registration_endpoint: `${b}/register`, response_types_supported: ['code'],
            code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'],
          });
        case 'POST /register':
          return json(201, { client_id: 'e2e-client', redirect_uris: JSON.parse(body).redirect_uris });
        case 'GET /authorize': {
          challenge = url.searchParams.get('code_challenge');
          const back = new URL(url.searchParams.get('redirect_uri'));
          back.searchParams.set('code', 'e2e-code');
          back.searchParams.set('state', url.searchParams.get('state'));
          res.writeHead(302, { Location: back.toString() });
          return res.end();
        }
        case 'POST /token': {
          const f = new URLSearchParams(body);
          const sum = createHash('sha256').update(f.get('code_verifier') ?? '').digest('base64url');
          if (f.get('code') !== 'e2e-code' || sum !== challenge || f.get('resource') !== `${b}/mcp`) {
            return json(400, { error: 'invalid_grant' });
          }
          token = `e2e-token-${randomBytes(8).toString('hex')}`;
          return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
        }
        case 'POST /mcp':
        case 'GET /mcp': {
          if (!token || req.headers.authorization !== `Bearer ${token}`) {
            return json(401, { error: 'invalid_token' }, {
              'WWW-Authenticate': `Bearer resource_metadata="${b}/.well-known/oauth-protected-resource/mcp"`,
            });
          }
          if (req.method === 'GET') {
            res.writeHead(405);
            return res.end();
          }
          const msg = JSON.parse(body);
          if (msg.id === undefined) {
            res.writeHead(202);
            return res.end();
          }
          const results = {
            initialize: { protocolVersion: msg.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'locked', version: '1.0.0' } },
            'tools/list': { tools: [{ name: 'whoami', description: 'Says who is logged in', inputSchema: { type: 'object' } }] },
            ping: {},
          };
          if (!(msg.method in results)) {
            return json(200, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
          }
          return json(200, { jsonrpc: '2.0', id: msg.id, result: results[msg.method] });
        }
        default:
          res.writeHead(404);
          return res.end();
      }
    });
  });
  return new Promise((resolve) => {
    srv.listen(0, '127.0.0.1', () => resolve({ server: srv, base: `http://127.0.0.1:${srv.address().port}` }));
  });
}
