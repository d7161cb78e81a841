import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';

/**
 * Schemas from real servers are sloppy: no `type`, `type: ["string","null"]`,
 * `$ref`s to places the schema does not have, `$schema` drafts the validator
 * does not load, arrays without `items`. normalizeSchema returns a copy the
 * form can render and the validator can compile; what the form cannot edit
 * is left without a `type`, which SchemaForm shows as a JSON editor.
 * The server still validates the call against its own schema, so loosening
 * here never lets a bad call through: it only stops the form refusing a good one.
 */
export function normalizeSchema(input: unknown): RJSFSchema {
  const root = isObject(input) ? input : {};
  const out = walk(root, root, 0) as RJSFSchema;
  if (out.type === undefined || out.type !== 'object') out.type = 'object';
  return out;
}

const maxDepth = 64; // a schema deeper than this is cyclic in practice (JSON has no cycles, but $ref chains do)

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Keys whose value is one subschema, a map of them, or a list of them.
const oneSub = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems'];
const mapSub = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const listSub = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isSchema = (v: unknown) => isObject(v) || typeof v === 'boolean';

/**
 * keywordFits: what each keyword's value must be for Ajv to compile the
 * schema and for rjsf to read it. Generators write null for a field they
 * did not set ("required": null, "anyOf": null), draft-03 writes
 * "required": true on a property, hand-written schemas put "$ref": 5: Ajv
 * then refuses the whole schema (no check in the form at all) and rjsf
 * throws while it renders ("Cannot read properties of null"). A keyword of
 * another JSON type says nothing a validator can use, so walk drops it and
 * keeps the rest.
 */
const keywordFits: Record<string, (v: unknown) => boolean> = {
  $ref: (v) => typeof v === 'string',
  format: (v) => typeof v === 'string',
  pattern: (v) => typeof v === 'string' && validPattern(v),
  minimum: isNumber, maximum: isNumber, exclusiveMinimum: isNumber, exclusiveMaximum: isNumber,
  multipleOf: (v) => isNumber(v) && (v as number) > 0,
  minLength: isCount, maxLength: isCount, minItems: isCount, maxItems: isCount,
  minProperties: isCount, maxProperties: isCount, minContains: isCount, maxContains: isCount,
  uniqueItems: (v) => typeof v === 'boolean',
  enum: Array.isArray, required: Array.isArray,
  anyOf: Array.isArray, oneOf: Array.isArray, allOf: Array.isArray, prefixItems: Array.isArray,
  properties: isObject, patternProperties: isObject, $defs: isObject, definitions: isObject,
  dependentSchemas: isObject, dependentRequired: isObject, dependencies: isObject,
  items: (v) => isSchema(v) || Array.isArray(v),
  ...Object.fromEntries(oneSub.filter((k) => k !== 'items').map((k) => [k, isSchema])),
};

/** validPattern: whether Ajv can compile a pattern (it reads them as unicode JavaScript regular expressions). */
function validPattern(p: string): boolean {
  try {
    new RegExp(p, 'u');
    return true;
  } catch {
    return false;
  }
}

function walk(s: unknown, root: Obj, depth: number): unknown {
  if (s === false) return { not: {} };
  if (!isObject(s) || depth > maxDepth) return { $comment: 'any JSON value' };
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    // $schema names a draft Ajv may not have loaded (2020-12): it would fail
    // to compile; $id would clash in Ajv's cache between two tools.
    if (k === '$schema' || k === '$id' || k === 'id' && typeof v === 'string') continue;
    // Draft-04's exclusiveMinimum: true (with minimum) is today's exclusiveMinimum: minimum.
    if ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean') continue;
    const fits = keywordFits[k];
    if (fits && !fits(v)) continue;
    // additionalProperties: false stays false (true and false mean "any" and
    // "none" there); items: true is any item.
    if (oneSub.includes(k) && isObject(v)) out[k] = walk(v, root, depth + 1);
    else if (k === 'items' && v === true) out[k] = { $comment: 'any JSON value' };
    else if (k === 'items' && Array.isArray(v)) out[k] = v.map((x) => walk(x, root, depth + 1));
    else if (k === 'patternProperties' && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).filter(([n]) => validPattern(n)).map(([n, x]) => [n, walk(x, root, depth + 1)]));
    else if (mapSub.includes(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, x]) => [n, walk(x, root, depth + 1)]));
    else if (listSub.includes(k) && Array.isArray(v)) out[k] = v.map((x) => walk(x, root, depth + 1));
    else if (k === 'required' && Array.isArray(v)) out[k] = v.filter((x) => typeof x === 'string');
    else out[k] = v;
  }
  draft4Exclusive(s, out);
  // A $ref the form cannot follow (another file, a URL, a missing pointer)
  // becomes an editable JSON value rather than an error.
  if (typeof out.$ref === 'string' && !resolves(out.$ref, root)) {
    delete out.$ref;
  }
  // ["string","null"] is a string that may be left out; a list of several
  // real types is something only JSON can say.
  if (Array.isArray(out.type)) {
    const types = (out.type as unknown[]).filter((t) => t !== 'null');
    if (types.length === 1) out.type = types[0];
    else delete out.type;
  } else if (out.type !== undefined && !['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'].includes(out.type as string)) {
    delete out.type;
  }
  // anyOf/oneOf of one schema and null (Optional[X] from Python, .nullable()
  // from zod) is that schema: the form leaves it out rather than send null.
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = out[k];
    if (!Array.isArray(alts)) continue;
    const real = alts.filter((a) => !(isObject(a) && a.type === 'null' && Object.keys(a).length === 1));
    if (real.length === 1 && real.length < alts.length && isObject(real[0])) {
      delete out[k];
      for (const [rk, rv] of Object.entries(real[0])) if (!(rk in out)) out[rk] = rv;
    } else if (real.length === 0) {
      delete out[k];
    }
  }
  dropNull(out);
  // Name each choice of a oneOf/anyOf by what it is, not "Option 2".
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = out[k];
    if (!Array.isArray(alts)) continue;
    const seen = new Map<string, number>();
    out[k] = alts.map((a, i) => {
      if (!isObject(a) || a.title !== undefined) return a;
      const t = optionTitle(a, i);
      const n = (seen.get(t) ?? 0) + 1;
      seen.set(t, n);
      return { ...a, title: n > 1 ? `${t} (${n})` : t };
    });
  }
  if (out.type === undefined) {
    if (isObject(out.properties)) out.type = 'object';
    else if (out.items !== undefined) out.type = 'array';
  }
  // rjsf renders nothing for an empty schema; a comment (which no
  // validator reads) makes it a field, edited as JSON (see jsonUiSchema).
  if (Object.keys(out).length === 0) out.$comment = 'any JSON value';
  // An array must say what its items are for the form to add one.
  if (out.type === 'array' && out.items === undefined && out.prefixItems === undefined) out.items = { $comment: 'any JSON value' };
  if (out.type === 'array' && out.items === undefined && Array.isArray(out.prefixItems)) {
    out.items = out.prefixItems;
    delete out.prefixItems;
  }
  return out;
}

/** draft4Exclusive turns draft-04's boolean exclusiveMinimum/Maximum, beside minimum/maximum, into the number form Ajv reads. */
function draft4Exclusive(s: Obj, out: Obj) {
  for (const [ex, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (s[ex] === true && isNumber(out[bound])) {
      out[ex] = out[bound];
      delete out[bound];
    }
  }
}

/**
 * dropNull: once the form leaves null out (["string","null"] and
 * anyOf [X, null] became X above), a "default": null or a null among the
 * enum values is one the form cannot send. rjsf would fill the default in
 * and Ajv would refuse it ("must be string"), so an optional field blocks Run
 * until the person types something (Sentry's Python tools say
 * "default": null on every optional argument).
 */
function dropNull(out: Obj) {
  if (typeof out.type !== 'string' || out.type === 'null') return;
  if (out.default === null) delete out.default;
  if (Array.isArray(out.enum) && out.enum.includes(null)) {
    const vals = out.enum.filter((x) => x !== null);
    if (vals.length > 0) out.enum = vals;
    else delete out.enum;
  }
}

const typeNames: Record<string, string> = { string: 'Text', number: 'Number', integer: 'Whole number', boolean: 'Yes or no', array: 'List', object: 'Object', null: 'Nothing' };

/**
 * optionTitle names a choice: its const, the const of its first property
 * that has one (a tagged union: {"type": {"const": "page_id"}}), the
 * definition a $ref names, or its type.
 */
function optionTitle(a: Obj, i: number): string {
  if (a.const !== undefined) return String(a.const);
  if (Array.isArray(a.enum) && a.enum.length === 1) return String(a.enum[0]);
  if (isObject(a.properties)) {
    for (const [name, p] of Object.entries(a.properties)) {
      if (isObject(p) && p.const !== undefined) return `${name}: ${String(p.const)}`;
      if (isObject(p) && Array.isArray(p.enum) && p.enum.length === 1) return `${name}: ${String(p.enum[0])}`;
    }
    const names = Object.keys(a.properties);
    if (names.length > 0 && names.length <= 3) return `Object with ${names.join(', ')}`;
  }
  if (typeof a.$ref === 'string') {
    const last = a.$ref.split('/').pop() ?? '';
    if (last) return decoded(last);
  }
  const t = Array.isArray(a.type) ? a.type[0] : a.type;
  if (typeof t === 'string' && typeNames[t]) {
    if (t === 'array' && isObject(a.items) && typeof a.items.type === 'string') return `List of ${(typeNames[a.items.type] ?? a.items.type).toLowerCase()}`;
    return typeNames[t] + (typeof a.format === 'string' ? ` (${a.format})` : '');
  }
  return `Choice ${i + 1}`;
}

/** resolves: whether a $ref is a JSON pointer into root that points at something. */
function resolves(ref: string, root: Obj): boolean {
  if (ref === '#') return true;
  const cur = pointer(ref, root);
  return isObject(cur) || typeof cur === 'boolean';
}

/** ajvOptions: how formValidator configures Ajv (tests compile schemas with them to see that none is refused). */
export const ajvOptions = { logger: false, strict: false, validateSchema: false } as const;

/**
 * The form's validator: Ajv as rjsf configures it, silent about formats it
 * does not know (servers invent them: "directory", "textarea"), and a schema
 * it cannot compile (a pattern JavaScript cannot parse) validates nothing
 * rather than refusing every call — the server checks the call anyway.
 */
export function formValidator() {
  const v = customizeValidator({ ajvOptionsOverrides: ajvOptions });
  const raw = v.rawValidation.bind(v);
  v.rawValidation = ((schema: RJSFSchema, data: unknown) => {
    const r = raw(schema, data);
    return r.validationError ? { errors: undefined, validationError: undefined } : r;
  }) as typeof v.rawValidation;
  const isValid = v.isValid.bind(v);
  v.isValid = (schema, data, root) => {
    try {
      return isValid(schema, data, root);
    } catch {
      return false;
    }
  };
  return v;
}

/**
 * jsonUiSchema marks each field of a normalized schema that no widget fits
 * (no type after normalizeSchema: any value, several types, an unknown
 * $ref) to be edited as JSON, with ui:field "json". rjsf would otherwise
 * show it as "Unsupported field schema" or, for an array item, nothing.
 */
export function jsonUiSchema(s: RJSFSchema, root: RJSFSchema = s, depth = 0, seen = new Set<string>()): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  if (depth > 24) return ui;
  let cur: Obj = s as Obj;
  if (typeof cur.$ref === 'string') {
    if (seen.has(cur.$ref)) return ui; // a recursive definition: rjsf shows its own expander below this depth
    seen = new Set(seen).add(cur.$ref);
    const target = pointer(cur.$ref, root as Obj);
    if (isObject(target)) cur = { ...target, ...cur, $ref: undefined };
  }
  const untyped = cur.type === undefined && cur.const === undefined && cur.enum === undefined && cur.$ref === undefined &&
    !cur.anyOf && !cur.oneOf && !cur.allOf && !isObject(cur.properties) && cur.additionalProperties === undefined && cur.patternProperties === undefined;
  if (untyped) return { 'ui:field': 'json' };
  if (isObject(cur.properties)) {
    for (const [name, p] of Object.entries(cur.properties)) {
      const sub = jsonUiSchema(p as RJSFSchema, root, depth + 1, seen);
      if (Object.keys(sub).length > 0) ui[name] = sub;
    }
  }
  if (isObject(cur.items)) {
    const sub = jsonUiSchema(cur.items as RJSFSchema, root, depth + 1, seen);
    if (Object.keys(sub).length > 0) ui.items = sub;
  }
  if (isObject(cur.additionalProperties)) {
    const sub = jsonUiSchema(cur.additionalProperties as RJSFSchema, root, depth + 1, seen);
    if (Object.keys(sub).length > 0) ui.additionalProperties = sub;
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = cur[k];
    if (!Array.isArray(alts)) continue;
    const subs = alts.map((a) => (isObject(a) ? jsonUiSchema(a as RJSFSchema, root, depth + 1, seen) : {}));
    if (subs.some((x) => Object.keys(x).length > 0)) ui[k] = subs;
  }
  return ui;
}

/** decoded: a $ref's %-escapes undone; a stray % (not an escape) is kept as written rather than thrown on. */
function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function pointer(ref: string, root: Obj): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decoded(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** mergeUi: b's entries over a's, objects merged (the caller's uiSchema over the JSON marks). */
export function mergeUi(a: Record<string, unknown>, b: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!b) return a;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? mergeUi(out[k] as Record<string, unknown>, v) : v;
  return out;
}
