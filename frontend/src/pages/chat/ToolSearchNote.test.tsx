import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ToolSearchNote, toolSearchBadge, type SearchDecision } from './ToolSearchNote';

const on: SearchDecision = {
  on: true, by: 'size', tools: 320, tokens: 41_000, window: 128_000, windowKnown: true, share: 25, above: 0,
  reason: "Tool search is on: 320 tools ≈ 41k tokens, more than a quarter of this model's 128k context; the model finds the ones it needs with find_tools.",
};
const off: SearchDecision = {
  on: false, by: 'size', tools: 40, tokens: 6_100, window: 32_000, windowKnown: false, share: 25, above: 0,
  reason: 'Tool search is off: 40 tools ≈ 6.1k tokens, within a quarter of the 32k context assumed for a model whose window is not known; the model sees them all.',
};

describe('ToolSearchNote', () => {
  it('says why search is on, what helps, and where to change it', () => {
    render(<ToolSearchNote decision={on} />);
    const note = screen.getByRole('note', { name: 'Tool search' });
    expect(note.textContent).toContain("Tool search is on: 320 tools ≈ 41k tokens, more than a quarter of this model's 128k context");
    expect(note.textContent).toContain('Switching off servers');
    expect(note.className).toContain('warn');
    expect(screen.getByRole('link', { name: 'Change when in Settings' }).getAttribute('href')).toBe('#/settings');
  });

  it('says why search is off, without a warning', () => {
    render(<ToolSearchNote decision={off} />);
    const note = screen.getByRole('note', { name: 'Tool search' });
    expect(note.textContent).toContain('Tool search is off: 40 tools ≈ 6.1k tokens, within a quarter of the 32k context assumed');
    expect(note.textContent).not.toContain('Switching off');
    expect(note.className).not.toContain('warn');
  });

  it('shows nothing before the status is known', () => {
    const { container } = render(<ToolSearchNote decision={null} />);
    expect(container.textContent).toBe('');
  });
});

describe('toolSearchBadge', () => {
  it.each([[on, 'search'], [off, ''], [null, '']])('%#', (d, want) => {
    expect(toolSearchBadge(d)).toBe(want);
  });
});
