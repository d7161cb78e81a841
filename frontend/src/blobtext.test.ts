import { describe, expect, it } from 'vitest';
import { decodeText, isText } from './blobtext';

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

describe('blob text, one rule for embedded resources and resource links', () => {
  it.each([
    { mime: 'text/plain', want: true },
    { mime: 'application/json', want: true },
    { mime: 'application/ld+json', want: true },
    { mime: 'application/yaml', want: true },
    { mime: 'image/svg+xml', want: true },
    { mime: 'image/png', want: false },
    { mime: 'application/octet-stream', want: false },
  ])('$mime reads as text: $want', ({ mime, want }) => {
    expect(isText(mime)).toBe(want);
  });
  it.each([
    { name: 'UTF-8', blob: b64('héllo ✓'), want: 'héllo ✓' },
    { name: 'not UTF-8', blob: btoa('\xff\xfe\xfd'), want: '(unreadable text)' },
    { name: 'not base64', blob: '!!!', want: '(unreadable text)' },
  ])('decodes $name', ({ blob, want }) => {
    expect(decodeText(blob)).toBe(want);
  });
});
