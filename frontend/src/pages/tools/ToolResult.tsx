import type { CallResult } from '../../servers';
import { ContentBlocks } from '../../components/ContentBlocks';
import { ResourceLinks } from '../../components/ResourceLinks';
import { StructuredResult } from '../../components/StructuredResult';

/**
 * ToolResult renders a call's content blocks (ContentBlocks, as the chat's
 * tool cards do): text, images, audio, resources; resource links as chips
 * that open the resource; structured content as a tree (with the
 * outputSchema mismatch, if any).
 */
export function ToolResult({ result, server, tool }: { result: CallResult; server: string; tool?: string }) {
  return (
    <section className={`result ${result.isError ? 'result-error' : ''}`} aria-label="Result">
      <div className="result-head">
        <strong>{result.isError ? 'Tool error' : 'Result'}</strong>
        <span className="muted">{result.durationMs.toFixed(1)} ms</span>
      </div>
      {result.content.length === 0 && !result.structured && <p className="muted">(no content)</p>}
      {/* The mismatch note is shown with the tree. */}
      <ContentBlocks content={result.content} tool={tool || server} hide={result.schemaError} />
      <ResourceLinks content={result.content} server={server} />
      <StructuredResult structured={result.structured} schemaError={result.schemaError} />
    </section>
  );
}
