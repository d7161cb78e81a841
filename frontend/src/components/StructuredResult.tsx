import { JsonTree } from './JsonTree';

/**
 * StructuredResult shows a result's structuredContent as a collapsible
 * tree, with the reason when it does not match the tool's outputSchema
 * (checked on the Go side; the call then counts as failed).
 */
export function StructuredResult({ structured, schemaError }: { structured: string; schemaError: string }) {
  let value: unknown;
  try {
    value = structured ? JSON.parse(structured) : undefined;
  } catch {
    value = structured;
  }
  if (value === undefined && !schemaError) return null;
  return (
    <div className="structured">
      <div className="small muted">Structured output</div>
      {schemaError && (
        <div className="alert" role="alert" data-testid="schema-error">
          <strong>Does not match the tool's outputSchema.</strong> {schemaError}
        </div>
      )}
      {value !== undefined && <JsonTree value={value} label="Structured output" />}
    </div>
  );
}
