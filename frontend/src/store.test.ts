import { describe, expect, it } from 'vitest';
import { createStore } from './store';

describe('createStore', () => {
  it('merges each patch and tells subscribers until they unsubscribe', () => {
    const s = createStore({ a: 1, b: 'x' });
    const seen: { a: number; b: string }[] = [];
    const off = s.subscribe(() => seen.push(s.get()));
    const before = s.get();
    s.set({ a: 2 });
    expect(s.get()).toEqual({ a: 2, b: 'x' });
    expect(before).toEqual({ a: 1, b: 'x' }); // a new state each time, so React sees the change
    off();
    s.set({ b: 'y' });
    expect(seen).toEqual([{ a: 2, b: 'x' }]);
    expect(s.get()).toEqual({ a: 2, b: 'y' });
  });
});
