import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { ajvOptions, normalizeSchema } from '../schemaform';
import { SchemaForm } from './SchemaForm';

// The input schemas of 300+ tools that 18 real npm servers list, written by
// the Go test app/chat/toolsearch (TestFindToolsAcrossRealServers -update).
type Tool = { name: string; inputSchema: { properties?: Record<string, { title?: string }>; required?: string[] } };
const load = <T,>(file: string) => JSON.parse(readFileSync(resolve(process.cwd(), file), 'utf8')) as T;
// server-everything as the window's client sees it: the corpus lacks the
// tools it lists only to a client that can answer elicitation and sampling,
// and the form its trigger-elicitation-request asks for (ElicitForm, on the
// chat page). Written from the pinned server by a TS SDK client.
const everything = load<Tool[]>('src/testdata/everything-tools.json');
const tools = [...load<Tool[]>('src/testdata/tool-schemas.json'), ...everything];
// Schemas written to break hosts (the Go provider's corpus): the form may
// give up its own checks on them, never the page.
const hostile = load<{ name: string; schema: unknown }[]>('../app/chat/provider/testdata/schemas/hostile.json');

/** compileError: what Ajv, configured as the form's validator is, says when it refuses a normalized schema ('' when it compiles). */
function compileError(schema: unknown): string {
  const r = customizeValidator({ ajvOptionsOverrides: ajvOptions }).rawValidation(normalizeSchema(schema), {});
  return r.validationError ? String(r.validationError) : '';
}

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
    expect(everything.map((t) => t.name)).toEqual(expect.arrayContaining(['everything__trigger-elicitation-request', 'everything elicitation 1']));
  });

  it('compiles each in the form validator: the form checks every real schema', () => {
    const refused = tools.map((t) => [t.name, compileError(t.inputSchema)]).filter(([, e]) => e !== '');
    expect(refused).toEqual([]);
  });

  it('renders and runs each hostile schema without a throw', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {}); // "Form validation failed" for a required field left empty
    const problems: string[] = [];
    for (const h of hostile) {
      try {
        const { container, unmount } = render(<SchemaForm schema={h.schema} onSubmit={() => {}}><button type="submit">Run</button></SchemaForm>);
        fireEvent.submit(container.querySelector('form')!);
        if (container.textContent?.includes('could not be built')) problems.push(`${h.name}: fell back to JSON`);
        unmount();
      } catch (e) {
        problems.push(`${h.name}: threw ${String(e)}`);
      }
    }
    const logged = errors.mock.calls.map(([first]) => String(first));
    errors.mockRestore();
    expect(problems).toEqual([]);
    for (const l of logged) expect(l).toMatch(/^Form validation failed/);
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
