import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { SandboxBadge, lines } from './ServerSandbox';
import type { gui } from '../../backend';

describe('lines', () => {
  it.each([
    ['', []],
    ['/a', ['/a']],
    [' /a \n\n~/b\n', ['/a', '~/b']],
  ])('%j is %j', (text, want) => {
    expect(lines(text)).toEqual(want);
  });
});

describe('SandboxBadge', () => {
  it('marks a sandboxed server only', () => {
    const { rerender } = render(<SandboxBadge server={{ name: 'a', sandboxed: true } as gui.ServerView} />);
    expect(screen.getByText('sandboxed').getAttribute('title')).toMatch(/home folder, keys and the network/);
    rerender(<SandboxBadge server={{ name: 'a', sandboxed: false } as gui.ServerView} />);
    expect(screen.queryByText('sandboxed')).toBeNull();
  });
});
