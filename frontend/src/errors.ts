// The text of an error for the window: Wails rejects a binding's promise
// with the Go error's text (a string), the browser throws Errors.

/** message is err's text, whether it is an Error or what a binding rejected with. */
export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * sentence starts text with a capital letter when it starts with a plain
 * lowercase word (a Go error such as "no model provider is set up: …"),
 * so the window shows it as a sentence; text that starts with a name in
 * quotes, a path or a code stays as it is.
 */
export function sentence(text: string): string {
  return /^[a-z]+(\s|$)/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
