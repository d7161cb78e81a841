// Reading a resource's base64 blob as text, one rule for every view of
// resources (a tool result's embedded resources, a resource link opened).

/** isText reports whether a blob of this MIME type reads as text. */
export function isText(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /[/+](json|xml|yaml)$/.test(mimeType);
}

/** decodeText reads a base64 blob as UTF-8 text; one that is not valid base64 or UTF-8 reads as "(unreadable text)". */
export function decodeText(b64: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
  } catch {
    return '(unreadable text)';
  }
}
