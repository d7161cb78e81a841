import { useEffect, useRef, useState } from 'react';
import { call, hasBackend } from '../../backend';
import { message } from '../../errors';
import { useConfigVersion } from '../../store';

/**
 * useSettingsForm loads a settings form from the backend, and again whenever
 * config.json changes, unless the person has edited the form since it was
 * last loaded or saved: a config change (this form's own save, another
 * window's, the CLI's) never overwrites what they are typing.
 *
 *   const form = useSettingsForm(() => DownloadTimeoutSeconds(), (s) => setMinutes(...));
 *   <input onChange={(e) => { form.edit(); setMinutes(e.target.value); }} />
 *   <form onSubmit={() => void form.save(() => SetDownloadTimeoutSeconds(...))}>
 *
 * note is "Saved" after a save; err is the last load or save error.
 */
export function useSettingsForm<T>(load: () => Promise<T>, apply: (v: T) => void) {
  const edited = useRef(false);
  // The latest closures, so the effect depends on the config version only.
  const fns = useRef({ load, apply });
  fns.current = { load, apply };
  const [note, setNote] = useState('');
  const [err, setErr] = useState('');
  const configVersion = useConfigVersion();
  useEffect(() => {
    if (!hasBackend()) return;
    call(fns.current.load).then((v) => {
      if (!edited.current) fns.current.apply(v);
    }, (e: unknown) => setErr(message(e)));
  }, [configVersion]);
  const edit = () => {
    edited.current = true;
    setNote('');
  };
  const save = async (fn: () => Promise<unknown>) => {
    setErr('');
    setNote('');
    try {
      await call(fn);
      edited.current = false;
      setNote('Saved');
    } catch (e) {
      setErr(message(e));
    }
  };
  return { note, err, edit, save };
}
