import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StructuredResult } from './StructuredResult';

describe('StructuredResult', () => {
  it('shows structured content as a tree whose objects and arrays fold', () => {
    const { container } = render(<StructuredResult structured='{"sum":6,"terms":[1,2,3],"note":null}' schemaError="" />);
    const tree = screen.getByRole('group', { name: 'Structured output' });
    expect(tree.textContent).toContain('sum: 6');
    expect(tree.textContent).toContain('note: null');
    const terms = [...container.querySelectorAll('summary')].find((s) => s.textContent?.startsWith('terms'));
    expect(terms?.textContent).toBe('terms: [3]');
    expect(terms?.parentElement?.tagName).toBe('DETAILS');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when the content does not match the outputSchema, and still shows it', () => {
    render(<StructuredResult structured='{"sum":"six"}' schemaError="calc: sum: structuredContent does not match the tool's outputSchema" />);
    expect(screen.getByRole('alert').textContent).toContain("does not match the tool's outputSchema");
    expect(screen.getByRole('group', { name: 'Structured output' }).textContent).toContain('sum: "six"');
  });

  it('shows the mismatch when a tool declaring a schema returned no structured content', () => {
    render(<StructuredResult structured="" schemaError="returned no structuredContent" />);
    expect(screen.getByRole('alert').textContent).toContain('returned no structuredContent');
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('shows nothing without structured content or a mismatch', () => {
    const { container } = render(<StructuredResult structured="" schemaError="" />);
    expect(container.textContent).toBe('');
  });
});
