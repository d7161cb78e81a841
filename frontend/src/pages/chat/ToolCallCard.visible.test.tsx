import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../chat';
import { ToolCallCard } from './ToolCallCard';

const call = (args: string): ToolCall => ({
  id: 'c1', index: 0, name: 'workspace__execute_shell', server: 'workspace', tool: 'execute_shell', args,
  status: 'pending', isError: false, error: '', durationMs: 0, approvalId: '',
});

describe('ToolCallCard arguments', () => {
  it('writes out what does not show as itself, as the approval card does', () => {
    render(<ToolCallCard call={call(String.raw`{"command":"ls \u2067;touch PWNED_T3\u2069 # list files ec\u200bho"}`)} />);
    fireEvent.click(screen.getByRole('button', { name: /execute_shell/ }));
    const args = document.querySelector('.tool-card-body pre.args')!;
    expect(args.textContent).toContain(String.raw`"command": "ls \u2067;touch PWNED_T3\u2069 # list files ec\u200Bho"`);
    expect(args.querySelectorAll('.invisible-code')).toHaveLength(3);
  });
});
