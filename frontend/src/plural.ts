// Counts in words: "1 document", "3 documents", "0 documents", by the language's plural rules
// (Intl.PluralRules), so no label says "1 documents".
const rules = new Intl.PluralRules('en');

/** count writes n with its noun: count(1, 'document') is "1 document"; other is the plural when it is not noun+s. */
export function count(n: number, noun: string, other = `${noun}s`): string {
  return `${n.toLocaleString('en')} ${rules.select(n) === 'one' ? noun : other}`;
}

/** bytes writes a size: "512 B", "12 KB", "3.4 MB". */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
