import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { duration, ToolCallCard } from './ToolCallCard';
import type { ToolCall } from '../../chat';

const call = (c: Partial<ToolCall>): ToolCall => ({ id: 'c1', index: 0, name: '', server: '', tool: '', args: '{}', status: 'done', isError: false, durationMs: 0, ...c } as ToolCall);

describe('ToolCallCard', () => {
  afterEach(cleanup);

  it('writes a call\'s time as people read it', () => {
    expect([850, 2_449, 14_200, 150_052, 180_000, 3_900_000].map(duration)).toEqual(['850 ms', '2.4 s', '14 s', '2 min 30 s', '3 min', '1 h 5 min']);
  });

  it('shows a delegation\'s time in minutes, not raw milliseconds', () => {
    render(<ToolCallCard call={call({ name: 'ask_alpha', server: 'alpha', tool: 'ask_alpha', durationMs: 150_052 })} />);
    expect(screen.getByText('2 min 30 s').getAttribute('title')).toBe('150,052 ms, without the time approvals waited for you');
  });

  it('draws a refused call that reached no server as Switchboard\'s, not as the server its name starts with', () => {
    render(<ToolCallCard call={call({ id: 'a1/s1', parent: 'a1', name: 'alpha__echo', status: 'error', isError: true, error: 'There is no tool named "alpha__echo".' })} />);
    expect(screen.getByRole('button').textContent).toMatch(/^switchboard/);
    cleanup();
    // While it streams, its name is all there is to go by.
    render(<ToolCallCard call={call({ name: 'alpha__echo', status: 'streaming' })} />);
    expect(screen.getByRole('button').textContent).toMatch(/^alpha/);
  });
});
