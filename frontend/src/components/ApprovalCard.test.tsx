import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Approval } from '../chat';
import { ApprovalCard } from './ApprovalCard';

const req = (r: Partial<Approval>): Approval => ({
  id: 'a1', chatId: '', kind: 'tool', server: 'workspace', tool: 'workspace__execute_shell', arguments: '{}', destructive: true, warnings: [], ...r,
});

// What the probe showed: each of these read as a harmless command on the card.
describe('ApprovalCard shows what runs', () => {
  it.each([
    ['an isolate pair', String.raw`{"command":"ls \u2067;touch PWNED_T3\u2069 # list files"}`, String.raw`"command": "ls \u2067;touch PWNED_T3\u2069 # list files"`],
    ['an override', String.raw`{"command":"echo safe # \u202e; touch PWNED_BIDI \u202c done"}`, String.raw`"command": "echo safe # \u202E; touch PWNED_BIDI \u202C done"`],
    ['a zero-width space', String.raw`{"command":"ec\u200bho hi"}`, String.raw`"command": "ec\u200Bho hi"`],
    ['a tag character and a Hangul filler', String.raw`{"command":"ls\udb40\udc41 \u3164"}`, String.raw`"command": "ls\U000E0041 \u3164"`],
    ['padding', `{"command":"echo harmless${' '.repeat(600)}; touch PWNED"}`, '"command": "echo harmless[600 spaces]; touch PWNED"'],
    ['arguments that are not JSON', 'rm\u2066 -rf ~', String.raw`rm\u2066 -rf ~`],
  ])('%s', (_, args, want) => {
    render(<ApprovalCard req={req({ arguments: args })} />);
    const shown = screen.getByLabelText('Arguments');
    expect(shown.textContent).toContain(want);
    expect(shown.textContent).not.toMatch(/[\u2066-\u2069\u202a-\u202e\u200b\u3164\u{e0041}]/u);
    expect(shown.querySelector('.invisible-code, .invisible-run')).not.toBeNull();
  });

  it('writes out the script', () => {
    render(<ApprovalCard req={req({ script: 'await tools.x.y({a: "b\u202e"});' })} />);
    expect(screen.getByLabelText('The script').textContent).toBe(String.raw`await tools.x.y({a: "b\u202E"});`);
  });

  it('writes out the tools a sampling request offers', () => {
    render(<ApprovalCard req={req({ kind: 'sampling', tool: '', arguments: '{"messages":[]}', tools: [{ name: 'ev\u200bil', description: 'safe \u2067tool\u2069' }] })} />);
    expect(screen.getByRole('list', { name: 'Tools offered to the model' }).textContent).toBe(String.raw`ev\u200Bil — safe \u2067tool\u2069`);
  });

  it('leaves ordinary arguments as they are', () => {
    render(<ApprovalCard req={req({ arguments: '{"command":"ls -la"}' })} />);
    const shown = screen.getByLabelText('Arguments');
    expect(shown.textContent).toBe('{\n  "command": "ls -la"\n}');
    expect(shown.querySelector('span')).toBeNull();
  });
});

describe('ApprovalCard says who asks', () => {
  it("names a specialist's server, not the model", () => {
    render(<ApprovalCard req={req({ server: 'alpha', tool: 'alpha__echo', specialist: 'alpha', destructive: false })} />);
    expect(screen.getByText(/specialist \(asked by the model\) wants to run/).textContent).toBe('The alpha specialist (asked by the model) wants to run alpha__echo');
  });

  it('names the model for its own call', () => {
    render(<ApprovalCard req={req({ tool: 'alpha__echo', destructive: false })} />);
    expect(screen.getByText(/wants to run/).textContent).toBe('The model wants to run alpha__echo');
  });
});
