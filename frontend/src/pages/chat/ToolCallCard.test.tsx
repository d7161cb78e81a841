import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { charIndex, duration, pieceEnd, SHOWN_CHARS, ToolCallCard } from './ToolCallCard';
import type { ToolCall } from '../../chat';
import type { host } from '../../backend';

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

  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
  const block = (b: Partial<host.ContentView> & { type: string }): host.ContentView =>
    ({ text: '', data: '', mimeType: '', uri: '', name: '', title: '', description: '', ...b });
  const result = (content: host.ContentView[]): host.CallResult => ({ isError: false, content, structured: '', schemaError: '', durationMs: 3 });
  const open = () => fireEvent.click(screen.getAllByRole('button')[0]!);

  it('shows a tool\'s image under its text, as a thumbnail', () => {
    render(<ToolCallCard call={call({ name: 'everything__get-tiny-image', server: 'everything', tool: 'get-tiny-image', result: result([
      block({ type: 'text', text: "Here's the image you requested:" }), block({ type: 'image', mimeType: 'image/png', data: PNG }),
      block({ type: 'text', text: 'The image above is the MCP logo.' }),
    ]) })} />);
    open();
    expect(screen.getByText('Result')).toBeTruthy();
    expect(screen.getByText(/Here's the image you requested/)).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Image from get-tiny-image' }).getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
  });

  it('says what came back when a result has no text: an image, an embedded resource, audio, or nothing', () => {
    render(<ToolCallCard call={call({ name: 'odd__svg', server: 'odd', tool: 'svg', result: result([block({ type: 'image', mimeType: 'image/svg+xml', data: btoa('<svg/>') })]) })} />);
    open();
    expect(screen.getByText('Result')).toBeTruthy();
    expect(screen.getByText('(no text; 1 image)')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Image from svg' })).toBeTruthy();
    cleanup();

    render(<ToolCallCard call={call({ name: 'odd__text_blob', server: 'odd', tool: 'text_blob', result: result([
      block({ type: 'resource', uri: 'file:///notes.md', mimeType: 'text/markdown', data: btoa('# Notes\nThe secret word is PINEAPPLE.\n') }),
    ]) })} />);
    open();
    expect(screen.getByText('(no text; 1 resource)')).toBeTruthy();
    expect(screen.getByText('file:///notes.md')).toBeTruthy();
    expect(screen.getByLabelText('Resource file:///notes.md').textContent).toContain('PINEAPPLE');
    cleanup();

    render(<ToolCallCard call={call({ name: 'odd__beep', server: 'odd', tool: 'beep', result: result([block({ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' })]) })} />);
    open();
    expect(screen.getByText('(no text; 1 audio clip)')).toBeTruthy();
    expect(document.querySelector('audio[controls]')?.getAttribute('src')).toBe('data:audio/wav;base64,UklGRg==');
    cleanup();

    render(<ToolCallCard call={call({ name: 'odd__none', server: 'odd', tool: 'none', result: result([]) })} />);
    open();
    expect(screen.getByText('(no content)')).toBeTruthy();
  });

  it('shows a running call\'s progress: a bar when the total is known, else the message and count; none once it ended', () => {
    const running = (progress: ToolCall['progress']) => call({ name: 'odd__slow', server: 'odd', tool: 'slow', status: 'running', progress });
    const { rerender } = render(<ToolCallCard call={running({ progress: 7, total: 20, message: 'step 7' })} />);
    let bar = screen.getByRole('progressbar', { name: 'Progress of slow' });
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemin'), bar.getAttribute('aria-valuemax')]).toEqual(['7', '0', '20']);
    expect(bar.textContent).toBe('step 7 (7 of 20)');
    expect((bar.querySelector('.call-progress-bar > span') as HTMLElement).style.width).toBe('35%');

    rerender(<ToolCallCard call={running({ progress: 3, message: 'copying' })} />);
    bar = screen.getByRole('progressbar', { name: 'Progress of slow' });
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    expect(bar.textContent).toBe('copying (3 so far)');
    expect(bar.querySelector('.call-progress-bar')).toBeNull();

    rerender(<ToolCallCard call={{ ...running({ progress: 20, total: 20 }), status: 'done' }} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('marks where the model\'s view of a capped one-line result ended, and draws a bounded window of it', () => {
    const line = 'A'.repeat(2 * 1024 * 1024);
    render(<ToolCallCard call={call({ name: 'odd__bigtext', server: 'odd', tool: 'bigtext', result: result([block({ type: 'text', text: line })]),
      capped: { id: 'k', lines: 2098, chars: line.length, shown: 23, seen: 23_000 } })} />);
    expect(screen.getByTestId('capped-note').textContent).toContain('its first 23,000 of 2,097,152 characters');
    open();
    const marker = screen.getByRole('separator', { name: "The model's view ended here" });
    expect(marker.textContent).toContain('after 23,000 of 2,097,152 characters');
    const pre = marker.parentElement!;
    expect(pre.firstChild?.textContent).toHaveLength(23_000);
    expect(pre.textContent!.length).toBeLessThan(SHOWN_CHARS + 200);
    const more = screen.getByRole('button', { name: /^Show more/ });
    expect(more.textContent).toContain(`${(line.length - SHOWN_CHARS).toLocaleString('en')} more characters`);
    fireEvent.click(more);
    expect(pre.textContent!.length).toBeGreaterThan(2 * SHOWN_CHARS);
    expect(pre.textContent!.length).toBeLessThan(2 * SHOWN_CHARS + 200);
  });

  it('finds the model\'s view in a result stored before characters were counted, by its lines cut as the model got them', () => {
    const text = `${'é'.repeat(700)}\nshort\n${'x'.repeat(2500)}`;
    // 700 é are 1,400 bytes: pieces of 500 and 200 characters; then "short"; then 1,000 + 1,000 + 500.
    expect([1, 2, 3, 4, 5].map((n) => pieceEnd(text, n))).toEqual([500, 700, 706, 1707, 2707]);
    expect(pieceEnd(text, 9)).toBe(text.length);
    expect(charIndex('a😀b', 2)).toBe(3);
    render(<ToolCallCard call={call({ name: 'odd__big', server: 'odd', tool: 'big', result: result([block({ type: 'text', text })]),
      capped: { id: 'k', lines: 6, chars: 3206, shown: 3 } })} />);
    open();
    const marker = screen.getByRole('separator', { name: "The model's view ended here" });
    expect(marker.textContent).toContain('at line 3 of 6');
    expect(marker.parentElement!.firstChild?.textContent).toBe(text.slice(0, 706));
  });

  it('draws a long result that is not capped a window at a time too', () => {
    const text = 'B'.repeat(SHOWN_CHARS * 3);
    render(<ToolCallCard call={call({ name: 'odd__big', server: 'odd', tool: 'big', result: result([block({ type: 'text', text })]) })} />);
    open();
    expect(document.querySelector('pre.result')?.textContent).toHaveLength(SHOWN_CHARS);
    fireEvent.click(screen.getByRole('button', { name: /^Show more/ }));
    expect(document.querySelector('pre.result')?.textContent).toHaveLength(2 * SHOWN_CHARS);
  });

  it('shows a script\'s image under what it returned, without its base64, and marks the line it failed at', () => {
    const b64 = `${'iVBORw0KGgo'.repeat(80)}AA==`;
    const value = { parts: [{ type: 'text', text: 'the logo' }, { type: 'image', mimeType: 'image/png', data: b64 }] };
    const script = (structured: object, content: host.ContentView[]) => call({ name: 'run_script', args: JSON.stringify({ script: 'const a = 1;\nreturn await tools.everything["get-tiny-image"]({});' }),
      result: { ...result(content), structured: JSON.stringify(structured) } });
    render(<ToolCallCard call={script({ value, logs: [], steps: [] }, [block({ type: 'text', text: '…' }), block({ type: 'image', mimeType: 'image/png', data: b64 })])} />);
    fireEvent.click(screen.getByRole('button', { name: /^Show all/ }));
    const returned = screen.getByLabelText('Returned').textContent ?? '';
    expect(returned).toContain(`"data": "[base64, ${b64.length} characters]"`);
    expect(returned).not.toContain(b64);
    expect(document.querySelectorAll('.script-view img')).toHaveLength(1);
    cleanup();
    render(<ToolCallCard call={script({ error: 'The script failed at line 2: uncaught Error: x', logs: [], steps: [] }, [block({ type: 'text', text: 'x' })])} />);
    expect(document.querySelector('mark.failed-line')?.textContent).toBe('return await tools.everything["get-tiny-image"]({});');
  });
});

