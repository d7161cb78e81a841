import type { CallResult } from '../../servers';
import { ResourceLinks } from '../../components/ResourceLinks';
import { StructuredResult } from '../../components/StructuredResult';

/**
 * ToolResult renders a call's content blocks: text, images, audio,
 * resources; resource links as chips that open the resource; structured
 * content as a tree (with the outputSchema mismatch, if any).
 */
export function ToolResult({ result, server }: { result: CallResult; server: string }) {
  return (
    <section className={`result ${result.isError ? 'result-error' : ''}`} aria-label="Result">
      <div className="result-head">
        <strong>{result.isError ? 'Tool error' : 'Result'}</strong>
        <span className="muted">{result.durationMs.toFixed(1)} ms</span>
      </div>
      {result.content.length === 0 && !result.structured && <p className="muted">(no content)</p>}
      {result.content.map((c, i) => {
        switch (c.type) {
          case 'text':
            // The mismatch note is shown with the tree.
            if (result.schemaError && c.text === result.schemaError) return null;
            return <pre key={i} className="result-text">{c.text}</pre>;
          case 'image':
            return <img key={i} alt={`image result ${i + 1}`} src={`data:${c.mimeType};base64,${c.data}`} />;
          case 'audio':
            return <audio key={i} controls src={`data:${c.mimeType};base64,${c.data}`} />;
          case 'resource_link':
            return null; // chips below
          case 'resource':
            return (
              <div key={i} className="result-resource">
                <code>{c.uri}</code> <span className="muted">{c.mimeType}</span>
                {c.text && <pre className="result-text">{c.text}</pre>}
              </div>
            );
          default:
            return null;
        }
      })}
      <ResourceLinks content={result.content} server={server} />
      <StructuredResult structured={result.structured} schemaError={result.schemaError} />
    </section>
  );
}
