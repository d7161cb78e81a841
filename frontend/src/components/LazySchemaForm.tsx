import { lazy, Suspense, type ComponentProps } from 'react';

const Form = lazy(() => import('./SchemaForm').then((m) => ({ default: m.SchemaForm })));

/**
 * SchemaForm, with its code (the form library and its JSON Schema
 * validator, a large part of the window's script) loaded the first time a
 * form shows rather than at start.
 */
export function SchemaForm(props: ComponentProps<typeof Form>) {
  return (
    <Suspense fallback={<p className="muted" role="status">Loading the form…</p>}>
      <Form {...props} />
    </Suspense>
  );
}
