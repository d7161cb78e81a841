import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { normalizeSchema } from '../schemaform';
import { SchemaForm } from './SchemaForm';

/** form renders a SchemaForm with a Run button; submitted holds what each Run sent. */
function form(schema: unknown) {
  const submitted = vi.fn();
  const r = render(<SchemaForm schema={schema} label="Arguments" onSubmit={submitted}><button type="submit">Run</button></SchemaForm>);
  return { ...r, submitted, user: userEvent.setup() };
}

function textOf(container: HTMLElement): string {
  return container.textContent ?? '';
}

describe('SchemaForm constructs', { timeout: 30_000 }, () => {
  it('adds, moves and removes array items with labelled buttons', async () => {
    const { user, submitted } = form({ type: 'object', properties: { tags: { type: 'array', title: 'Tags', items: { type: 'string' } } } });
    expect(screen.getByRole('form', { name: 'Arguments' })).toBeTruthy();
    expect(screen.getByText('No items.')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add item to Tags' });
    expect(add.textContent).toBe('Add item');
    await user.click(add);
    await user.click(add);
    const items = screen.getAllByRole('group', { name: /^Item / });
    expect(items).toHaveLength(2);
    await user.type(within(items[0]!).getByRole('textbox'), 'first');
    await user.type(within(items[1]!).getByRole('textbox'), 'second');
    for (const [name, text] of [['Move up item 2', 'Move up'], ['Move down item 1', 'Move down'], ['Remove item 1', 'Remove']]) {
      expect(screen.getByRole('button', { name }).textContent).toBe(text);
    }
    expect((screen.getByRole('button', { name: 'Move up item 1' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Move up item 2' }));
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ tags: ['second', 'first'] });
    await user.click(screen.getByRole('button', { name: 'Remove item 1' }));
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ tags: ['first'] });
  });

  it('renders oneOf choices by name and switches the field with the choice', async () => {
    const { user, submitted, container } = form({
      type: 'object',
      properties: {
        target: { oneOf: [
          { type: 'object', properties: { type: { const: 'page_id' }, page_id: { type: 'string', title: 'Page id' } }, required: ['page_id'] },
          { type: 'object', properties: { type: { const: 'database_id' }, database_id: { type: 'string', title: 'Database id' } }, required: ['database_id'] },
        ] },
      },
    });
    const kind = screen.getByRole('combobox', { name: 'Kind' });
    expect([...(kind as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['type: page_id', 'type: database_id']);
    await user.selectOptions(kind, 'type: database_id');
    await user.type(screen.getByLabelText(/Database id/), 'db1');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ target: { type: 'database_id', database_id: 'db1' } });
    expect(textOf(container)).not.toContain('Option');
  });

  it('renders anyOf of types, and an optional X (anyOf X or null) as X', async () => {
    const { user, submitted } = form({
      type: 'object',
      properties: {
        limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], title: 'Limit', default: null },
        value: { anyOf: [{ type: 'string' }, { type: 'number' }], title: 'Value' },
      },
    });
    const kind = screen.getByRole('combobox', { name: 'Kind' });
    expect([...(kind as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Text', 'Number']);
    await user.type(screen.getByRole('spinbutton', { name: 'Limit' }), '5');
    await user.selectOptions(kind, 'Number');
    await user.type(screen.getByRole('spinbutton', { name: /Value/ }), '2.5');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ limit: 5, value: 2.5 });
  });

  it('renders nested objects with their titles, enums, defaults, const and formats', async () => {
    const { user, submitted } = form({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['where'],
      properties: {
        where: { type: 'object', title: 'Where', required: ['city'], properties: { city: { type: 'string', title: 'City' }, zip: { type: ['string', 'null'], title: 'Zip' } } },
        unit: { type: 'string', enum: ['metric', 'imperial'], default: 'metric', title: 'Unit' },
        version: { const: 2, title: 'Version' },
        site: { type: 'string', format: 'uri', title: 'Site' },
        folder: { type: 'string', format: 'directory', title: 'Folder' },
        when: { type: 'string', format: 'date-time', title: 'When' },
      },
    });
    expect(screen.getByRole('group', { name: /Where/ })).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Unit' }) as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('metric');
    await user.type(screen.getByRole('textbox', { name: /City/ }), 'Oslo');
    await user.type(screen.getByRole('textbox', { name: 'Folder' }), '/tmp/x'); // a format Ajv does not know
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith(expect.objectContaining({ where: { city: 'Oslo' }, unit: 'metric', version: 2, folder: '/tmp/x' }));
    // A format Ajv knows is checked.
    await user.type(screen.getByRole('textbox', { name: 'Site' }), 'not a url');
    submitted.mockClear();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).not.toHaveBeenCalled();
  });

  it('edits a field of no type as JSON: an inline error, then the value', async () => {
    const { user, submitted, container } = form({ type: 'object', properties: { filter: { title: 'Filter', description: 'A MongoDB filter' } }, required: ['filter'] });
    expect(textOf(container)).not.toMatch(/Unsupported|Unknown field type/);
    const box = screen.getByRole('textbox', { name: /Filter/ });
    await user.click(box);
    await user.paste('{"age": ');
    expect(screen.getByRole('alert').textContent).toMatch(/^Not valid JSON/);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toMatch(/^Not valid JSON/);
    await user.click(box);
    await user.paste('{"$gt": 3}}');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ filter: { age: { $gt: 3 } } });
  });

  it('survives sloppy schemas: missing type, unknown $ref, array without items, several types, additionalProperties', async () => {
    const { user, submitted, container } = form({
      properties: {
        a: { $ref: 'https://example.com/other.json' },
        b: { type: 'array' },
        c: { type: ['string', 'number'], title: 'C' },
        d: { type: 'object', additionalProperties: { type: 'string' }, title: 'Headers' },
        e: { $ref: '#/$defs/E' },
        p: { type: 'string', pattern: '\\p{Lu}[' }, // not a JavaScript pattern: no validation rather than no form
      },
      $defs: { E: { type: 'string', title: 'E' } },
    });
    expect(textOf(container)).not.toMatch(/Unsupported|Unknown field type|is not supported/);
    expect(screen.getByRole('button', { name: 'Add property' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add item to b' }));
    expect(within(screen.getByRole('group', { name: 'Item 1' })).getByRole('textbox').getAttribute('placeholder')).toMatch(/^JSON/); // an item of no schema is JSON
    await user.click(screen.getByRole('textbox', { name: 'C' }));
    await user.paste('7');
    await user.type(screen.getByRole('textbox', { name: 'E' }), 'e');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(submitted.mock.lastCall?.[0]).toMatchObject({ c: 7, e: 'e' });
  });
});

describe('SchemaForm on schemas the form library throws on', { timeout: 30_000 }, () => {
  // Before normalizeSchema dropped keywords of another JSON type, each threw
  // while rendering ("Cannot read properties of null", "ref.startsWith is
  // not a function"): a blank window, as no boundary above catches it.
  const cases: [string, unknown][] = [
    ['anyOf: null', { type: 'object', properties: { x: { type: 'string', title: 'X', anyOf: null } } }],
    ['oneOf: null in an array', { type: 'object', properties: { x: { type: 'array', title: 'X', oneOf: null } } }],
    ['required: null', { type: 'object', properties: { x: { type: 'string', title: 'X' } }, required: null }],
    ['$ref: 5', { type: 'object', properties: { x: { $ref: 5, title: 'X' } } }],
    ['$ref: null', { type: 'object', properties: { x: { $ref: null, title: 'X' } } }],
  ];
  it.each(cases)('%s renders its fields and runs', async (_, schema) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { user, submitted } = form(schema);
      expect(screen.getAllByText(/^X/).length).toBeGreaterThan(0); // its label or legend
      expect(screen.queryByText(/could not be built/)).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Run' }));
      expect(submitted).toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('runs an optional argument of default null without a value (Sentry)', async () => {
    const { user, submitted } = form({
      type: 'object',
      properties: {
        organizationSlug: { type: 'string', title: 'Organization' },
        query: { default: null, anyOf: [{ type: 'string' }, { type: 'null' }], title: 'Query' },
        project: { default: null, type: ['string', 'null'], title: 'Project' },
      },
      required: ['organizationSlug'],
    });
    await user.type(screen.getByRole('textbox', { name: /Organization/ }), 'acme');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ organizationSlug: 'acme' });
  });

  it('falls back to JSON when the form library throws anyway', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {}); // React logs the error it caught
    onTestFinished(() => errors.mockRestore());
    const submitted = vi.fn();
    const schema = { type: 'object', properties: { x: { type: 'string' } } };
    const { rerender } = render(
      <SchemaForm schema={schema} uiSchema={{ x: { 'ui:widget': 'no-such-widget' } }} label="Arguments" formData={{ x: 'a' }} onSubmit={submitted}>
        <button type="submit">Run</button>
      </SchemaForm>,
    );
    const user = userEvent.setup();
    expect(screen.getByRole('form', { name: 'Arguments' })).toBeTruthy();
    expect(screen.getByText(/could not be built from the server's schema/).textContent).toMatch(/no-such-widget/);
    const box = screen.getByRole('textbox', { name: 'Values (JSON)' });
    expect(JSON.parse((box as HTMLTextAreaElement).value)).toEqual({ x: 'a' });
    await user.clear(box);
    await user.click(box);
    await user.paste('[1]');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toMatch(/^Not a JSON object/);
    await user.clear(box);
    await user.click(box);
    await user.paste('{"x": "b"}');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(submitted).toHaveBeenLastCalledWith({ x: 'b' });
    // Another schema (another tool) gets the form again.
    rerender(<SchemaForm schema={{ ...schema }} label="Arguments" onSubmit={submitted}><button type="submit">Run</button></SchemaForm>);
    expect(screen.queryByText(/could not be built/)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'x' })).toBeTruthy();
  });
});

describe('normalizeSchema', () => {
  it('keeps additionalProperties false and drops what Ajv cannot load', () => {
    const s = normalizeSchema({ $schema: 'x', $id: 'y', additionalProperties: false, properties: { n: { type: ['integer', 'null'] } } });
    expect(s).toEqual({ type: 'object', additionalProperties: false, properties: { n: { type: 'integer' } } });
  });
});
