import type { ReactNode } from 'react';

/**
 * splitError splits an error as the Go side sends it (mcpmanager/plain):
 * the first line is the sentence a person reads — what happened and what
 * to do —, the rest the technical detail.
 */
export function splitError(text: string): { sentence: string; detail: string } {
  const i = text.indexOf('\n');
  if (i < 0) return { sentence: text.trim(), detail: '' };
  return { sentence: text.slice(0, i).trim(), detail: text.slice(i + 1).trim() };
}

/**
 * ErrorMessage shows an error in plain words: its sentence, and the
 * technical detail behind a disclosure. `role` is "alert" for an error the
 * person just caused, "status" for a state shown on a page (a server's
 * row); `children` follow the sentence (e.g. "Showing the listing fetched 3
 * hours ago.").
 */
export function ErrorMessage({ error, role = 'alert', className = 'alert', label, children }: {
  error: string;
  role?: 'alert' | 'status';
  className?: string;
  label?: string;
  children?: ReactNode;
}) {
  const { sentence, detail } = splitError(error);
  return (
    <div className={`error-message ${className}`} role={role} aria-label={label}>
      <span className="error-sentence">{sentence}</span>{children && <> {children}</>}
      {detail && (
        <details className="error-detail">
          <summary>Technical details</summary>
          <pre>{detail}</pre>
        </details>
      )}
    </div>
  );
}
