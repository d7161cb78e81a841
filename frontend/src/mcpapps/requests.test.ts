// The host's answers to ext-apps 2.x requests, driven by the SDK's own App
// over a linked in-memory transport to a real AppBridge.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { answerAppRequests, fileSize, gestureIn, hostCapabilities2026, type AppHost, type DisplayMode } from './requests';

let open: { app: App; bridge: AppBridge }[] = [];
afterEach(async () => {
  for (const o of open) { await o.app.close(); await o.bridge.close(); }
  open = [];
});

/** connect links an App to a bridge answered by host (its fields overriding a host that refuses everything). */
async function connect(over: Partial<AppHost>) {
  let mode: DisplayMode = 'inline';
  const host: AppHost = {
    server: 'ext', uri: 'ui://ext/app.html', chatId: 'c1',
    describe: vi.fn(async () => []), confirm: vi.fn(async () => false), save: vi.fn(async () => ''),
    sample: vi.fn(async () => { throw new Error('no sampling here'); }),
    gesture: () => false, mode: () => mode, setMode: vi.fn((m: DisplayMode) => { mode = m; }), close: vi.fn(),
    ...over,
  };
  const bridge = new AppBridge(null, { name: 'test host', version: '1' }, { ...hostCapabilities2026 }, {
    hostContext: { displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen', 'pip'] },
  });
  answerAppRequests(bridge, host);
  const app = new App({ name: 'test app', version: '1' }, { availableDisplayModes: ['inline', 'fullscreen', 'pip'] }, { autoResize: false });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await bridge.connect(b);
  await app.connect(a);
  open.push({ app, bridge });
  return { app, host, mode: () => mode };
}

const csv = { type: 'resource' as const, resource: { uri: 'file:///../.Q4 report.csv', mimeType: 'text/csv', text: 'a,b\n' } };

describe('ui/download-file', () => {
  it('is declared, described, confirmed with the user and saved file by file', async () => {
    const files = [{ name: 'Q4 report.csv', mimeType: 'text/csv', size: 4 }];
    const { app, host } = await connect({
      gesture: () => true, describe: vi.fn(async () => files), confirm: vi.fn(async () => true), save: vi.fn(async () => '/home/me/Downloads/Q4 report.csv'),
    });
    expect(app.getHostCapabilities()?.downloadFile).toEqual({});
    const r = await app.downloadFile({ contents: [csv] });
    expect(r.isError).toBeFalsy();
    expect(host.describe).toHaveBeenCalledWith(JSON.stringify([csv]));
    expect(host.confirm).toHaveBeenCalledWith(files);
    expect(host.save).toHaveBeenCalledWith(JSON.stringify([csv]), 0);
  });
  it('saves nothing and says isError when the user says no', async () => {
    const { app, host } = await connect({ gesture: () => true, describe: vi.fn(async () => [{ name: 'x.csv', mimeType: '', size: 1 }]), confirm: vi.fn(async () => false) });
    expect((await app.downloadFile({ contents: [csv] })).isError).toBe(true);
    expect(host.save).not.toHaveBeenCalled();
  });
  it('says isError when the save dialog is cancelled', async () => {
    const { app } = await connect({ gesture: () => true, describe: vi.fn(async () => [{ name: 'x.csv', mimeType: '', size: 1 }]), confirm: vi.fn(async () => true), save: vi.fn(async () => '') });
    expect((await app.downloadFile({ contents: [csv] })).isError).toBe(true);
  });
  it("passes Go's refusal (a web link) on to the app as an error", async () => {
    const { app, host } = await connect({ gesture: () => true, describe: vi.fn(async () => { throw new Error('Q4.pdf links to https://x.example/q4.pdf: Switchboard saves only files the app embeds'); }) });
    await expect(app.downloadFile({ contents: [{ type: 'resource_link', uri: 'https://x.example/q4.pdf', name: 'Q4' }] })).rejects.toThrow(/saves only files the app embeds/);
    expect(host.confirm).not.toHaveBeenCalled();
  });
  it('needs a user gesture, as full screen does: without one nothing is described, asked or saved', async () => {
    const { app, host } = await connect({ gesture: () => false, describe: vi.fn(async () => [{ name: 'x.csv', mimeType: '', size: 1 }]), confirm: vi.fn(async () => true) });
    await expect(app.downloadFile({ contents: [csv] })).rejects.toThrow(/Saving a file needs a user gesture/);
    expect(host.describe).not.toHaveBeenCalled();
    expect(host.confirm).not.toHaveBeenCalled();
    expect(host.save).not.toHaveBeenCalled();
  });
  it("passes Go's refusal of too many files on to the app", async () => {
    const { app, host } = await connect({ gesture: () => true, describe: vi.fn(async () => { throw new Error('the app asked to save 10000 files at once, more than an app may save: at most 20 a request'); }) });
    await expect(app.downloadFile({ contents: [csv] })).rejects.toThrow(/at most 20 a request/);
    expect(host.confirm).not.toHaveBeenCalled();
  });
});

describe('display modes', () => {
  it('refuses full screen and pip without a user gesture, with an error that says so', async () => {
    const { app, host, mode } = await connect({ gesture: () => false });
    await expect(app.requestDisplayMode({ mode: 'fullscreen' })).rejects.toThrow(/Full screen needs a user gesture/);
    await expect(app.requestDisplayMode({ mode: 'pip' })).rejects.toThrow(/Picture-in-picture needs a user gesture/);
    expect(mode()).toBe('inline');
    expect(host.setMode).not.toHaveBeenCalled();
    // Inline needs none.
    expect(await app.requestDisplayMode({ mode: 'inline' })).toEqual({ mode: 'inline' });
  });
  it('grants full screen and pip after a gesture inside the app, and inline back without one', async () => {
    let gesture = true;
    const { app, mode } = await connect({ gesture: () => gesture });
    expect(await app.requestDisplayMode({ mode: 'pip' })).toEqual({ mode: 'pip' });
    expect(mode()).toBe('pip');
    expect(await app.requestDisplayMode({ mode: 'fullscreen' })).toEqual({ mode: 'fullscreen' });
    gesture = false;
    expect(await app.requestDisplayMode({ mode: 'fullscreen' })).toEqual({ mode: 'fullscreen' }); // already there
    expect(await app.requestDisplayMode({ mode: 'inline' })).toEqual({ mode: 'inline' });
    expect(mode()).toBe('inline');
  });
});

describe('sampling from an app', () => {
  it('goes through Go (the server sampling policy) and returns its answer', async () => {
    const sample = vi.fn(async (_params: string) => JSON.stringify({ role: 'assistant', content: { type: 'text', text: 'Q4 was fine.' }, model: 'fake-model', stopReason: 'endTurn' }));
    const { app } = await connect({ sample });
    expect(app.getHostCapabilities()?.sampling).toEqual({});
    const r = await app.createSamplingMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise Q4' } }], maxTokens: 50 });
    expect(r.content).toEqual({ type: 'text', text: 'Q4 was fine.' });
    expect(JSON.parse(sample.mock.calls[0]?.[0] ?? '{}')).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise Q4' } }], maxTokens: 50 });
  });
  it("gives the app the policy's refusal", async () => {
    const { app } = await connect({ sample: vi.fn(async () => { throw new Error('the user declined the server\'s request to use the model'); }) });
    await expect(app.createSamplingMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5 })).rejects.toThrow(/declined/);
  });
});

describe('ui/notifications/request-teardown', () => {
  it('closes the app', async () => {
    const { app, host } = await connect({});
    await app.requestTeardown();
    await vi.waitFor(() => expect(host.close).toHaveBeenCalledOnce());
  });
});

describe('gestureIn', () => {
  it('needs focus in the frame and a transient activation', () => {
    const frame = document.createElement('iframe');
    document.body.appendChild(frame);
    const other = document.createElement('button');
    document.body.appendChild(other);
    other.focus();
    expect(gestureIn(frame, document, { isActive: true })).toBe(false);
    frame.focus();
    expect(document.activeElement).toBe(frame);
    expect(gestureIn(frame, document, { isActive: true })).toBe(true);
    expect(gestureIn(frame, document, { isActive: false })).toBe(false);
    expect(gestureIn(frame, document, undefined)).toBe(true);
    expect(gestureIn(null, document, { isActive: true })).toBe(false);
    frame.remove(); other.remove();
  });
});

describe('fileSize', () => {
  it.each([[1, '1 byte'], [20, '20 bytes'], [2048, '2.0 KB'], [5 * 1024 * 1024, '5.0 MB']])('%d', (n, want) => {
    expect(fileSize(n)).toBe(want);
  });
});
