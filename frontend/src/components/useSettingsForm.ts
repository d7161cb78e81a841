import { useContext, useEffect, useId, useRef, useState } from 'react';
import { call, hasBackend } from '../backend';
import { message } from '../errors';
import { useConfigVersion } from '../store';
import { SaveBarContext } from './saveBar';

/**
 * useSettingsForm loads a settings form from the backend, and again whenever
 * config.json changes, unless the person has edited the form since it was
 * last loaded or saved: a config change (this form's own save, another
 * window's, the CLI's) never overwrites what they are typing.
 *
 *   const form = useSettingsForm(() => DownloadTimeoutSeconds(), (s) => setMinutes(...));
 *   <input onChange={(e) => { form.edit(); setMinutes(e.target.value); }} />
 *   <form ref={form.formRef} onSubmit={() => void form.save(() => SetDownloadTimeoutSeconds(...))}>
 *     {form.standalone && <button type="submit">Save download limit</button>}
 *
 * On the Settings page (inside a SaveBarContext) an edit registers the form
 * with the page's one Save, which submits it; Discard there loads it again.
 * Alone, the form shows its own Save (standalone). note is "Saved" after a
 * save; err is the last load or save error.
 */
export function useSettingsForm<T>(load: () => Promise<T>, apply: (v: T) => void) {
  const edited = useRef(false);
  // The latest closures, so the effect depends on the config version only.
  const fns = useRef({ load, apply });
  fns.current = { load, apply };
  const formRef = useRef<HTMLFormElement>(null);
  const bar = useContext(SaveBarContext);
  const id = useId();
  const [note, setNote] = useState('');
  const [err, setErr] = useState('');
  const configVersion = useConfigVersion();
  const discarded = bar?.discarded ?? 0;
  const seenDiscard = useRef(discarded);
  useEffect(() => {
    if (seenDiscard.current !== discarded) { // Discard: what is saved wins
      seenDiscard.current = discarded;
      edited.current = false;
      setErr('');
      setNote('');
    }
    if (!hasBackend()) return;
    call(fns.current.load).then((v) => {
      if (!edited.current) fns.current.apply(v);
    }, (e: unknown) => setErr(message(e)));
  }, [configVersion, discarded]);
  const edit = () => {
    edited.current = true;
    setNote('');
    bar?.set(id, formRef.current?.getAttribute('aria-label') ?? '', () => formRef.current?.requestSubmit());
  };
  const save = async (fn: () => Promise<unknown>) => {
    setErr('');
    setNote('');
    try {
      await call(fn);
      edited.current = false;
      bar?.set(id, '', null);
      setNote('Saved');
    } catch (e) {
      setErr(message(e));
    }
  };
  return { note, err, edit, save, formRef, standalone: !bar };
}
