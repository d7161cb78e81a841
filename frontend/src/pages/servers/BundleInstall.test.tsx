import { describe, expect, it } from 'vitest';
import { confirming, isBundle, problems, startValues } from './BundleInstall';
import type { gui } from '../../backend';

const opt = (o: Partial<gui.BundleOption>): gui.BundleOption => ({
  key: 'k', type: 'string', title: 'K', description: '', required: false, multiple: false, sensitive: false,
  hasMin: false, min: 0, hasMax: false, max: 0, values: [], kept: false, ...o,
});
const form = (options: gui.BundleOption[]) => ({ options } as unknown as gui.BundleForm);

describe('isBundle', () => {
  it.each([['a.mcpb', true], ['A.MCPB', true], ['old.dxt', true], ['config.json', false], ['x.mcpb.zip', false]])('%s → %s', (n, want) => {
    expect(isBundle(n)).toBe(want);
  });
});

describe('startValues', () => {
  it('starts from the defaults, with one empty field where there are none', () => {
    expect(startValues(form([opt({ key: 'a', values: ['x', 'y'] }), opt({ key: 'b' })]))).toEqual({ a: ['x', 'y'], b: [''] });
  });
});

describe('problems', () => {
  const f = form([
    opt({ key: 'key', title: 'API key', required: true, sensitive: true }),
    opt({ key: 'n', title: 'Limit', type: 'number', hasMin: true, min: 1, hasMax: true, max: 10 }),
  ]);
  it.each([
    [{ key: [''], n: ['5'] }, ['API key is required']],
    [{ key: ['s'], n: ['11'] }, ['Limit: 11 is outside 1–10']],
    [{ key: ['s'], n: ['x'] }, ['Limit: x is not a number']],
    [{ key: ['s'], n: ['10'] }, []],
  ])('%j', (values, want) => {
    expect(problems(f, values)).toEqual(want);
  });
  it('a sensitive value kept in the keyring is not required again', () => {
    expect(problems(form([opt({ key: 'key', title: 'API key', required: true, sensitive: true, kept: true })]), { key: [''] })).toEqual([]);
  });
});

describe('confirming', () => {
  const f = (signed: string, changes: gui.BundleChange[]) => ({ signed, changes } as unknown as gui.BundleForm);
  const signer = [{ what: 'signer', was: 'Unsigned', now: 'Signed by x' }];
  it.each([
    ['the same bundle', f('unsigned', []), false],
    ['another signer', f('self-signed', signer), true],
    ['a signature that does not match (never installable)', f('invalid', signer), false],
  ])('%s', (_, form, want) => {
    expect(confirming(form)).toBe(want);
  });
});
