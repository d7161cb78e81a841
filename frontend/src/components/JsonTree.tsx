/**
 * JsonTree shows a JSON value as a tree whose objects and arrays fold
 * (details/summary: keyboard and screen readers work without help). The
 * top level and its children start open.
 */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  return (
    <div className="json-tree" role="group" aria-label={label}>
      <Node value={value} depth={0} />
    </div>
  );
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const key = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    return (
      <details open={depth < 2} className="json-node">
        <summary>{key}<span className="muted">{summary}</span></summary>
        <ul>
          {entries.map(([k, v]) => (
            <li key={k}><Node name={k} value={v} depth={depth + 1} /></li>
          ))}
        </ul>
      </details>
    );
  }
  const kind = value === null ? 'null' : typeof value;
  return (
    <span className="json-leaf">{key}<span className={`json-${kind}`}>{JSON.stringify(value)}</span></span>
  );
}
