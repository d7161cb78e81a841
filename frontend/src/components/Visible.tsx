import { Fragment } from 'react';
import { visibleParts } from '../visible';

/**
 * Visible shows text from a model or a server with what does not show as
 * itself written out and highlighted: a bidi isolate as \u2067, a
 * zero-width space as \u200B, 600 spaces as [600 spaces] (see visible.ts).
 * Wherever a person decides on such text — an approval card's arguments and
 * script, a server's question — it is shown through this.
 */
export function Visible({ text }: { text: string }) {
  const parts = visibleParts(text);
  if (parts.length === 1 && parts[0]!.kind === 'text') return <>{text}</>;
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p.kind === 'text' ? p.text : <span className={`invisible-${p.kind}`} title={p.title}>{p.text}</span>}
        </Fragment>
      ))}
    </>
  );
}
