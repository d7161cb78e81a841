import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { InstallProgress, elapsed } from './InstallProgress';
import type { gui } from '../../backend';

describe('elapsed', () => {
  it.each([
    [0, '0:00'],
    [9.9, '0:09'],
    [61, '1:01'],
    [-3, '0:00'],
    [600, '10:00'],
  ])('%s s is %s', (s, want) => {
    expect(elapsed(s)).toBe(want);
  });
});

describe('InstallProgress', () => {
  it('shows the package manager line and the time since installing began', () => {
    const since = new Date(Date.now() - 75_000).toISOString();
    const s = { name: 'tiny', state: 'installing', since, progress: 'npm http fetch GET 200 http://127.0.0.1/x.tgz 20ms' } as unknown as gui.ServerView;
    render(<InstallProgress server={s} />);
    const status = screen.getByRole('status', { name: 'Downloading tiny' });
    expect(status.textContent).toContain('npm http fetch GET 200');
    expect(status.textContent).toMatch(/1:1[56]/);
  });
});
