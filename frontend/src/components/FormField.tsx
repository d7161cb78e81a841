// One way for every form to say what is wrong (the server editor's, the
// provider's, the agent's): the problem under its field in a sentence, the
// field marked invalid, and on a failed submit focus on the first such
// field and a count beside the submit button.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { FOCUSABLE } from '../dismiss';

/** FieldProps go on a FieldBox's control: its id, its hint and problems as description, and whether it is invalid. */
export interface FieldProps {
  id: string;
  'aria-describedby': string;
  'aria-invalid': true | undefined;
}

/** sentence writes a problem as a sentence: a capital first letter and a full stop (the Go side's rules are lower-case phrases). */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const s = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?:)"”…]$/.test(s) ? s : `${s}.`;
}

/**
 * FieldBox is one labelled field with its hint, and its problems under it
 * (the hint stays: it often says how to fix the problem). The control gets
 * aria-invalid and both as its description.
 */
export function FieldBox({ label, problems, hint, className, children }: {
  label: ReactNode; problems?: string[]; hint?: ReactNode; className?: string; children: (p: FieldProps) => ReactNode;
}) {
  const id = useId();
  const bad = (problems ?? []).length > 0;
  return (
    <div className={`field${bad ? ' field-bad' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': `${id}-desc`, 'aria-invalid': bad || undefined })}
      <div id={`${id}-desc`}>
        {hint && <p className="muted small field-hint">{hint}</p>}
        {(problems ?? []).map((p) => <p key={p} className="field-problem">{sentence(p)}</p>)}
      </div>
    </div>
  );
}

/** problemCount is the count a failed submit announces: "2 problems: Name, Command." ("" for none). */
export function problemCount(fields: string[]): string {
  if (fields.length === 0) return '';
  return `${fields.length === 1 ? '1 problem' : `${fields.length} problems`}: ${fields.join(', ')}.`;
}

/**
 * useSubmitProblems is what a form does after a submit that found
 * problems (failed(fields), the labels of the fields that have one): once
 * they are on screen, focus moves to the first field marked .field-bad in
 * form (its invalid control, else its first control) and it is scrolled
 * into view, and summary counts them for ProblemCount until clear() (the
 * next edit or submit).
 */
export function useSubmitProblems(form: RefObject<HTMLElement | null>): { failed: (fields: string[]) => void; clear: () => void; summary: string } {
  const [tries, setTries] = useState(0);
  const [summary, setSummary] = useState('');
  const handled = useRef(0);
  useEffect(() => {
    if (tries === handled.current) return;
    handled.current = tries;
    const field = form.current?.querySelector('.field-bad');
    const target = field?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? field?.querySelector<HTMLElement>(FOCUSABLE);
    if (!target) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView?.({ block: 'center' });
  }, [tries, form]);
  return {
    failed: (fields) => {
      setSummary(problemCount(fields));
      setTries((t) => t + 1);
    },
    clear: () => setSummary(''),
    summary,
  };
}

/** ProblemCount says beside a submit button, as the submit fails, how many fields have a problem and which. */
export function ProblemCount({ summary }: { summary: string }) {
  if (!summary) return null;
  return <span className="field-problem problem-count" role="alert">{summary}</span>;
}
