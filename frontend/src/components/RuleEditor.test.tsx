import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RuleEditor } from './RuleEditor';

const noop = () => {};

describe('RuleEditor', () => {
  it('writes out a proposed pattern that holds characters an input does not show', () => {
    render(<RuleEditor initial={{ id: '', tool: 'workspace__execute_shell', effect: 'allow', text: '', match: [{ path: 'command', glob: 'ls \u2067;touch x\u2069*', regex: '' }] }} onSaved={noop} onCancel={noop} />);
    expect(screen.getByLabelText('Pattern 1 written out').textContent).toContain(String.raw`ls \u2067;touch x\u2069*`);
  });

  it('says nothing of an ordinary pattern', () => {
    render(<RuleEditor initial={{ id: '', tool: 'workspace__execute_shell', effect: 'allow', text: '', match: [{ path: 'command', glob: 'git status*', regex: '' }] }} onSaved={noop} onCancel={noop} />);
    expect(screen.queryByLabelText('Pattern 1 written out')).toBeNull();
  });
});
