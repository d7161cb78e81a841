import { useState } from 'react';
import { message } from '../errors';

/**
 * useAction runs a row's or a card's actions one at a time: `busy` names the
 * one running ('' when none) so its button can say so and the others wait,
 * and `err` is the last one's failure as a sentence.
 */
export function useAction() {
  const [busy, setBusy] = useState('');
  const [err, setErr] = useState('');
  const act = (label: string, fn: () => Promise<void>) => async () => {
    setBusy(label);
    setErr('');
    try {
      await fn();
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy('');
    }
  };
  return { busy, err, setErr, act };
}
