import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ContextMeter, kilo, level } from './ContextMeter';
import { applyEvent, setMeter, watchRequests, type ChatEvent, type ContextMeter as Meter } from '../../chat';
import { GAP_MS } from '../../orderer';

const meter = (m: Partial<Meter>): Meter => ({ used: 0, window: 8192, limit: 6553, system: 0, tools: 0, history: 0, results: 0, ...m });

describe('ContextMeter', () => {

  it('writes token counts short', () => {
    expect([kilo(812), kilo(3412), kilo(128_000)]).toEqual(['812', '3.4k', '128k']);
  });

  it('is near past three quarters of the limit and full past it; unknown windows never warn', () => {
    expect(level(meter({ used: 3000 }))).toBe('ok');
    expect(level(meter({ used: 5000 }))).toBe('near');
    expect(level(meter({ used: 7000 }))).toBe('full');
    expect(level(meter({ used: 900_000, window: 0, limit: 0 }))).toBe('ok');
  });

  it('shows used / window and, opened, what takes it and Compact now', () => {
    setMeter('c1', meter({ used: 5200, history: 1200, results: 3000, tools: 900, system: 100, stubbed: 2, calibrated: true }));
    render(<ContextMeter chatId="c1" />);
    const button = screen.getByRole('button', { name: '63% — context 5.2k of 8.2k tokens' });
    expect(screen.getByRole('meter', { name: 'Context used' }).getAttribute('aria-valuenow')).toBe('5200');
    expect(button.className).toContain('near');
    fireEvent.click(button);
    const pop = screen.getByRole('dialog', { name: 'Context window' });
    expect(pop.textContent).toContain('Tool results3.0k (2 older steps shrunk to stubs)');
    expect(pop.textContent).toContain('near the model');
    expect(screen.getByRole('button', { name: 'Compact now' })).toBeTruthy();
  });

  it('says when the window is assumed, and where to set the real one', () => {
    setMeter('c1', meter({ used: 4000, window: 32000, limit: 25600, assumed: true }));
    render(<ContextMeter chatId="c1" />);
    const button = screen.getByRole('button', { name: '13% · assumed — context 4.0k of 32k tokens (window assumed)' });
    expect(button.textContent).toContain('assumed');
    fireEvent.click(button);
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('32k tokens is assumed');
    expect(note.textContent).toContain('Settings → Chat → Long chats → Context windows');
  });

  // Results, not steps: one step of ten results with six stubbed was "1 earlier step".
  it.each([
    { name: 'six results of one step', m: { turnStubbed: 1, turnStubbedResults: 6 }, says: 'the model sees 6 of them as stubs, the oldest first' },
    { name: 'one result', m: { turnStubbed: 1, turnStubbedResults: 1 }, says: 'the model sees 1 of them as a stub, the oldest first' },
    { name: 'short results, none shortened', m: { turnStubbed: 1 }, says: '' },
  ])('says how many of this turn\'s own results are stubs: $name', ({ m, says }) => {
    setMeter('c1', meter({ used: 6000, ...m }));
    render(<ContextMeter chatId="c1" />);
    fireEvent.click(screen.getByRole('button', { name: /— context / }));
    const text = screen.getByRole('dialog', { name: 'Context window' }).textContent ?? '';
    if (says) expect(text).toContain(says);
    else expect(text).not.toContain('no longer fit the window together');
    expect(text).not.toContain('step');
  });

  // A voice-control user says what they see ("click 34 percent"): the name starts with it (WCAG 2.5.3).
  it.each([
    { name: 'a known window', m: meter({ used: 2800, window: 8192 }) },
    { name: 'an assumed window', m: meter({ used: 11_000, window: 32_768, assumed: true }) },
    { name: 'an unknown window', m: meter({ used: 3412, window: 0, limit: 0 }) },
    { name: 'summarising', m: meter({ compacting: true }) },
  ])('names the button with its visible text first: $name', ({ m }) => {
    setMeter('c1', m);
    render(<ContextMeter chatId="c1" />);
    const button = screen.getByRole('button', { expanded: false });
    const visible = button.textContent ?? '';
    expect(visible).not.toBe('');
    expect(button.getAttribute('aria-label')?.startsWith(visible)).toBe(true);
  });

  it('says when the chat is being summarised', () => {
    setMeter('c1', meter({ compacting: true }));
    render(<ContextMeter chatId="c1" />);
    expect(screen.getByRole('button', { name: 'Summarising… the earlier messages' })).toBeTruthy();
  });
});

// events stands in for the Go side of a chat's events: the window's chat
// listener (the store subscribes once, so it is kept across tests), and
// ChatContext's answer (counted). Each test uses a chat of its own.
let listener: ((ev: ChatEvent) => void) | undefined;
function events(chatId: string, answer: Meter) {
  const asked = { n: 0 };
  window.go = {
    gui: {
      ChatPage: {
        ChatContext: async () => { asked.n++; return answer; },
        Chats: async () => [],
      },
    },
  } as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = {
    EventsOnMultiple: (name: string, fn: (ev: ChatEvent) => void) => {
      if (name === 'chat:event') listener = fn;
      return () => { listener = undefined; };
    },
  };
  watchRequests();
  const send = (ev: Partial<ChatEvent> & { seq: number; type: string }) => act(() => listener?.({ chatId, ...ev }));
  return { send, asked };
}

describe('the meter when events come late', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('takes a context event the orderer gave up waiting for, unless a newer one or the turn\'s end came', async () => {
    vi.useFakeTimers();
    const { send, asked } = events('late', meter({ used: 1500 }));
    setMeter('late', meter({ used: 100 }));
    render(<ContextMeter chatId="late" />);
    send({ seq: 1, type: 'context', context: meter({ compacting: true }) });
    expect(screen.getByRole('button', { name: 'Summarising… the earlier messages' })).toBeTruthy();
    // The summary's message comes, its meter (seq 2) does not: the orderer gives up on it.
    send({ seq: 3, type: 'message', messageId: 's', role: 'summary', text: 'Notes.' });
    act(() => { vi.advanceTimersByTime(GAP_MS); });
    expect(screen.getByRole('button', { name: 'Summarising… the earlier messages' })).toBeTruthy();
    send({ seq: 2, type: 'context', context: meter({ used: 2100 }) }); // late, and still the newest meter
    expect(screen.getByRole('button', { name: /— context 2\.1k of 8\.2k tokens$/ })).toBeTruthy();
    send({ seq: 1, type: 'context', context: meter({ compacting: true }) }); // a duplicate, older: ignored
    expect(screen.getByRole('button', { name: /— context 2\.1k of 8\.2k tokens$/ })).toBeTruthy();
    expect(asked.n).toBe(0);
  });

  it('asks again when a turn ends with the meter still summarising (the summary failed)', async () => {
    const { send, asked } = events('failed', meter({ used: 1500 }));
    setMeter('failed', meter({ used: 900 }));
    render(<ContextMeter chatId="failed" />);
    send({ seq: 10, type: 'context', context: meter({ compacting: true }) });
    expect(screen.getByRole('button', { name: 'Summarising… the earlier messages' })).toBeTruthy();
    send({ seq: 11, type: 'error', error: 'save summary: disk full' });
    send({ seq: 12, type: 'done' });
    expect(await screen.findByRole('button', { name: /— context 1\.5k of 8\.2k tokens$/ })).toBeTruthy();
    expect(asked.n).toBe(1);
  });
});

describe('summary messages', () => {
  it('arrive complete, not streaming', () => {
    const msgs = applyEvent([], { chatId: 'c', seq: 1, type: 'message', messageId: 's1', role: 'summary', text: 'Notes.' });
    expect(msgs[0]).toMatchObject({ role: 'summary', status: 'complete', text: 'Notes.' });
  });
});
