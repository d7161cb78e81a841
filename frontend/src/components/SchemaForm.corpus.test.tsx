import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SchemaForm } from './SchemaForm';

// The input schemas of 300+ tools that 18 real npm servers list, written by
// the Go test app/chat/toolsearch (TestFindToolsAcrossRealServers -update).
type Tool = { name: string; inputSchema: { properties?: Record<string, { title?: string }>; required?: string[] } };
const tools = JSON.parse(readFileSync(resolve(process.cwd(), 'src/testdata/tool-schemas.json'), 'utf8')) as Tool[];

/** labelled: whether a form control or group has an accessible name. */
function labelled(el: Element): boolean {
  if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return true;
  if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
    return [...(el.labels ?? [])].some((l) => (l.textContent ?? '').trim() !== '');
  }
  if (el instanceof HTMLFieldSetElement) return (el.querySelector(':scope > legend')?.textContent ?? '').trim() !== '';
  return false;
}

describe('every real tool schema renders a form', { timeout: 120_000 }, () => {
  it('has the corpus', () => {
    expect(tools.length).toBeGreaterThan(300);
  });

  it('renders each without an error and labels each required property', () => {
    const errors = vi.spyOn(console, 'error');
    const problems: string[] = [];
    for (const t of tools) {
      let container: HTMLElement;
      let unmount: () => void;
      try {
        ({ container, unmount } = render(<SchemaForm schema={t.inputSchema} onSubmit={() => {}}><button type="submit">Run</button></SchemaForm>));
      } catch (e) {
        problems.push(`${t.name}: threw ${String(e)}`);
        continue;
      }
      const text = container.textContent ?? '';
      for (const bad of ['Unsupported', 'Unknown field type', 'is not supported']) {
        if (text.includes(bad)) problems.push(`${t.name}: shows "${bad}"`);
      }
      if (container.querySelector('.unsupported-field, pre')) problems.push(`${t.name}: shows a raw schema dump`);
      const root = container.querySelector('form fieldset');
      for (const p of t.inputSchema.required ?? []) {
        const id = `${root?.id}_${p}`;
        // A oneOf/anyOf property is first its choice of kind.
        const el = ['', '__anyof_select', '__oneof_select'].map((s) => container.ownerDocument.getElementById(id + s)).find((e) => e);
        if (!el) problems.push(`${t.name}: required ${p} has no field`);
        else if (!labelled(el)) problems.push(`${t.name}: required ${p} has no label`);
      }
      unmount();
    }
    expect(problems).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});
