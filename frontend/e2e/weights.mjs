// weights.mjs prints the WEIGHTS table of run.mjs (each test file's
// seconds) from the TAP output of an e2e run:
//
//	node frontend/e2e/weights.mjs frontend/e2e/artifacts/shard-*.txt
//
// Each top-level test's duration_ms is added to the file that declares it:
// its title as a string literal there, or a template literal test title
// (`… at ${width} px`) whose fixed parts match it. A test no file claims is
// named on stderr. Paste the output over WEIGHTS in run.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const logs = process.argv.slice(2);
if (logs.length === 0) {
  console.error('usage: node frontend/e2e/weights.mjs TAP-OUTPUT...');
  process.exit(2);
}

// Durations of the top-level tests (TAP lines at column 0).
const durations = new Map();
for (const log of logs) {
  let current = null;
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const m = /^(?:ok|not ok) \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (m) { current = m[1]; continue; }
    const d = /^ {2}duration_ms: ([\d.]+)/.exec(line);
    if (d && current !== null) {
      durations.set(current, (durations.get(current) ?? 0) + Number(d[1]) / 1000);
      current = null;
    }
  }
}

const testsDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'tests');
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const weights = {};
const unclaimed = new Set(durations.keys());
for (const file of readdirSync(testsDir).filter((f) => f.endsWith('.test.mjs')).sort()) {
  const src = readFileSync(path.join(testsDir, file), 'utf8');
  const templates = [...src.matchAll(/test\(\s*`([^`]*\$\{[^`]*)`/g)]
    .map((m) => new RegExp('^' + m[1].split(/\$\{[^}]*\}/).map(escapeRegExp).join('.+?') + '$'));
  let total = 0;
  for (const [title, seconds] of durations) {
    const literal = [`'${title.replaceAll("'", "\\'")}'`, `"${title}"`, `\`${title}\``];
    if (literal.some((l) => src.includes(l)) || templates.some((t) => t.test(title))) {
      total += seconds;
      unclaimed.delete(title);
    }
  }
  weights[file.replace(/\.test\.mjs$/, '')] = Math.round(total);
}
for (const title of unclaimed) console.error(`no file declares the test "${title}"`);

const entries = Object.entries(weights).map(([k, v]) => `${/^\w+$/.test(k) ? k : `'${k}'`}: ${v}`);
const lines = [];
let line = ' ';
for (const e of entries) {
  if (line.length + e.length + 2 > 100) { lines.push(line.trimEnd()); line = ' '; }
  line += ` ${e},`;
}
lines.push(line.trimEnd());
console.log(`const WEIGHTS = {\n${lines.join('\n')}\n};`);
console.error(`${Object.values(weights).reduce((a, b) => a + b, 0)} s in all`);
