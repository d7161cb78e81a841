import type { ReactNode } from 'react';

/** Placeholder is the frame of a page whose feature has not landed yet. */
export function Placeholder({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <div className="placeholder">{children}</div>
    </section>
  );
}
