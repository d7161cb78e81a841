import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ContextMeter, kilo, level } from './ContextMeter';
import { applyEvent, setMeter, type ContextMeter as Meter } from '../../chat';

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
    const button = screen.getByRole('button', { name: 'Context 5.2k of 8.2k tokens' });
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
    const button = screen.getByRole('button', { name: 'Context 4.0k of 32k tokens (window assumed)' });
    expect(button.textContent).toContain('assumed');
    fireEvent.click(button);
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('32k tokens is assumed');
    expect(note.textContent).toContain('Settings → Long chats → Context windows');
  });

  it('says when this turn\'s own results are stubbed', () => {
    setMeter('c1', meter({ used: 6000, turnStubbed: 2 }));
    render(<ContextMeter chatId="c1" />);
    fireEvent.click(screen.getByRole('button', { name: /^Context / }));
    expect(screen.getByRole('dialog', { name: 'Context window' }).textContent).toContain('sees 2 earlier steps of it as stubs');
  });

  it('says when the chat is being summarised', () => {
    setMeter('c1', meter({ compacting: true }));
    render(<ContextMeter chatId="c1" />);
    expect(screen.getByRole('button', { name: 'Summarising the earlier messages…' })).toBeTruthy();
  });
});

describe('summary messages', () => {
  it('arrive complete, not streaming', () => {
    const msgs = applyEvent([], { chatId: 'c', seq: 1, type: 'message', messageId: 's1', role: 'summary', text: 'Notes.' });
    expect(msgs[0]).toMatchObject({ role: 'summary', status: 'complete', text: 'Notes.' });
  });
});
