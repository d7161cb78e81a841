// The text of an error for the window: Wails rejects a binding's promise
// with the Go error's text (a string), the browser throws Errors.

/** message is err's text, whether it is an Error or what a binding rejected with. */
export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
