// Narrowing JSON that arrives as text (tool results, arguments): a parsed
// value is unknown until a guard has looked at it, never cast to a type.

/** isRecord says whether v is a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** isNumber says whether v is a finite number. */
export function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** isString says whether v is a string. */
export function isString(v: unknown): v is string {
  return typeof v === 'string';
}
