import { describe, expect, it } from 'vitest';
import { clampHeight, partialArgs } from './apps';

describe('partialArgs', () => {
  it.each([
    ['{"city":"Oslo"}', { city: 'Oslo' }],
    ['{"city":"Os', { city: 'Os' }],
    ['{"city":"Oslo","days":[1,2', { city: 'Oslo', days: [1, 2] }],
    ['{"city":"Oslo","da', { city: 'Oslo' }],
    ['{"city":"Oslo",', { city: 'Oslo' }],
    ['{"a":{"b":"c\\"d', { a: { b: 'c"d' } }],
    ['', null],
    ['[1,2]', null],
  ])('%s', (text, want) => {
    expect(partialArgs(text)).toEqual(want);
  });
});

describe('clampHeight', () => {
  it('keeps a card between its limits', () => {
    expect(clampHeight(undefined)).toBe(160);
    expect(clampHeight(10)).toBe(48);
    expect(clampHeight(300.2)).toBe(301);
    expect(clampHeight(5000)).toBe(720);
  });
});
