import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ErrorMessage, splitError } from './ErrorMessage';

describe('splitError', () => {
  it.each([
    ['one line', 'one line', ''],
    ['uvx is not installed: install uv (https://docs.astral.sh/uv/) or change the command in Edit\nexec "uvx": executable file not found in $PATH',
      'uvx is not installed: install uv (https://docs.astral.sh/uv/) or change the command in Edit', 'exec "uvx": executable file not found in $PATH'],
    ['sentence.\n\n  detail one\ndetail two\n', 'sentence.', 'detail one\ndetail two'],
  ])('%j', (text, sentence, detail) => {
    expect(splitError(text)).toEqual({ sentence, detail });
  });
});

describe('ErrorMessage', () => {
  it('shows the sentence and keeps the technical text behind a closed disclosure', () => {
    render(<ErrorMessage error={'The MCP Registry at http://127.0.0.1:9 is offline or cannot be reached: check your internet connection.\nGet "http://127.0.0.1:9/v0.1/servers": dial tcp 127.0.0.1:9: connect: connection refused'} />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('.error-sentence')?.textContent).toBe('The MCP Registry at http://127.0.0.1:9 is offline or cannot be reached: check your internet connection.');
    const details = alert.querySelector('details');
    expect(details).not.toBeNull();
    expect(details?.open).toBe(false);
    expect(screen.getByText('Technical details').tagName).toBe('SUMMARY');
    expect(details?.querySelector('pre')?.textContent).toContain('connection refused');
  });

  it('has no disclosure when the sentence is everything, and adds what follows it', () => {
    render(<ErrorMessage error="No server named x." role="status" label="x failed">Showing the listing fetched 3 hours ago.</ErrorMessage>);
    const status = screen.getByRole('status', { name: 'x failed' });
    expect(status.textContent).toBe('No server named x. Showing the listing fetched 3 hours ago.');
    expect(status.querySelector('details')).toBeNull();
  });
});
