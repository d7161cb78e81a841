import { customizeValidator } from '@rjsf/validator-ajv8';
import { describe, expect, it } from 'vitest';
import { ajvOptions, normalizeSchema } from './schemaform';

/** compileError: what Ajv, configured as the form's validator, says when it refuses a normalized schema ('' when it compiles). */
function compileError(schema: unknown): string {
  const r = customizeValidator({ ajvOptionsOverrides: ajvOptions }).rawValidation(normalizeSchema(schema), {});
  return r.validationError ? String(r.validationError) : '';
}

const prop = (p: Record<string, unknown>) => ({ type: 'object', properties: { x: p } });

describe('normalizeSchema drops keywords of another JSON type', () => {
  // Each would make Ajv refuse the whole schema (no check in the form at all).
  const cases: [string, unknown][] = [
    ['required: null', { type: 'object', properties: { a: { type: 'string' } }, required: null }],
    ['properties: null', { type: 'object', properties: null }],
    ['anyOf: null', prop({ type: 'string', anyOf: null })],
    ['oneOf: null', prop({ type: 'string', oneOf: null })],
    ['allOf: null', prop({ type: 'string', allOf: null })],
    ['enum: null', prop({ type: 'string', enum: null })],
    ['enum: "red"', prop({ type: 'string', enum: 'red' })],
    ['items: null', prop({ type: 'array', items: null })],
    ['additionalProperties: null', prop({ type: 'object', additionalProperties: null })],
    ['not: null', prop({ type: 'string', not: null })],
    ['$ref: null', prop({ $ref: null })],
    ['$ref: 5', prop({ $ref: 5 })],
    ['minimum: null', prop({ type: 'number', minimum: null })],
    ['maxLength: "ten"', prop({ type: 'string', maxLength: 'ten' })],
    ['pattern: null', prop({ type: 'string', pattern: null })],
    ['format: 7', prop({ type: 'string', format: 7 })],
    ['uniqueItems: null', prop({ type: 'array', uniqueItems: null })],
    ['draft-03 required: true', prop({ type: 'string', required: true })],
    ['draft-04 exclusiveMinimum: true', prop({ type: 'number', minimum: 0, exclusiveMinimum: true })],
    ['a pattern JavaScript cannot read', prop({ type: 'string', pattern: '(?i)abc' })],
    ['a patternProperties key JavaScript cannot read', prop({ type: 'object', patternProperties: { '(?i)^x': { type: 'string' } } })],
    ['required with a number', { type: 'object', properties: { a: { type: 'string' } }, required: [1, 'a'] }],
  ];
  it.each(cases)('%s compiles', (_, schema) => {
    expect(compileError(schema)).toBe('');
  });

  it('keeps what the rest of the schema checks', () => {
    const s = normalizeSchema({ type: 'object', properties: { a: { type: 'string', maxLength: 3, pattern: null, required: true } }, required: [1, 'a'] });
    expect(s).toEqual({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, required: ['a'] });
  });

  it('turns draft-04 exclusive bounds into numbers', () => {
    expect(normalizeSchema(prop({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false })).properties)
      .toEqual({ x: { type: 'number', exclusiveMinimum: 0, maximum: 9 } });
  });

  it('keeps a $ref with a stray % and names its choice', () => {
    const s = normalizeSchema({ type: 'object', $defs: { '100%': { type: 'string' } }, properties: { x: { anyOf: [{ $ref: '#/$defs/100%' }, { type: 'number' }] } } });
    expect((s.properties!.x as { anyOf: { title: string }[] }).anyOf.map((a) => a.title)).toEqual(['100%', 'Number']);
  });
});

describe('normalizeSchema leaves out a null the form does not send', () => {
  const cases: [string, unknown, unknown][] = [
    // Sentry's Python tools: an optional argument is anyOf [X, null] with default null.
    ['anyOf with null, default null', prop({ default: null, anyOf: [{ type: 'string' }, { type: 'null' }] }), { type: 'string' }],
    ['type list with null, default null', prop({ type: ['string', 'null'], default: null }), { type: 'string' }],
    ['enum with null', prop({ type: ['string', 'null'], enum: ['a', null] }), { type: 'string', enum: ['a'] }],
    ['enum of null only', prop({ type: ['string', 'null'], enum: [null] }), { type: 'string' }],
    ['a null type keeps its default', prop({ type: 'null', default: null }), { type: 'null', default: null }],
  ];
  it.each(cases)('%s', (_, schema, want) => {
    expect(normalizeSchema(schema).properties!.x).toEqual(want);
  });
});
