import { describe, expect, it } from 'vitest';
import { clampHeight, partialArgs, toolResult } from './toolApps';

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

describe('toolResult', () => {
  const blank = { text: '', data: '', mimeType: '', uri: '', name: '', title: '', description: '' };
  it('gives the app structuredContent as an object and the content blocks as MCP spells them', () => {
    const r = toolResult({
      isError: false,
      structured: '{"time":"2026-11-24T06:00:00Z"}',
      content: [
        { ...blank, type: 'text', text: 'now' },
        { ...blank, type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { ...blank, type: 'resource_link', uri: 'file:///a', name: 'a', title: 'A' },
      ],
    });
    expect(r.structuredContent).toEqual({ time: '2026-11-24T06:00:00Z' });
    expect(r.content).toEqual([
      { type: 'text', text: 'now' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///a', name: 'a', title: 'A' },
    ]);
    expect(r.isError).toBe(false);
  });
  it('leaves out structured content that is not a JSON object', () => {
    expect(toolResult({ isError: true, structured: 'oops', content: [] })).toEqual({ content: [], isError: true });
    expect(toolResult({ isError: false, structured: '[1]', content: [] }).structuredContent).toBeUndefined();
  });
});
