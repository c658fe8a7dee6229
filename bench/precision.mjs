// Allow-recall on the labelled precision corpus (corpus/precision/): of the commands labelled
// read-only, how many the gate allows with no settings; every allow of another label is listed.
// Usage: npm run build && node bench/precision.mjs [--misses] [--shell bash|zsh|sh|auto] [--file dialects.jsonl]
import { createGate } from '../dist/index.js';
import { labelFor, precisionCases, PRECISION_CONTEXT, SHELLS, sharedPresent } from '../scripts/lib/precision-corpus.mjs';

const shellAt = process.argv.indexOf('--shell');
const shell = shellAt > 0 ? process.argv[shellAt + 1] : 'bash';
if (!SHELLS.includes(shell)) {
  console.error(`--shell takes one of ${SHELLS.join(', ')}, not "${shell}"`);
  process.exit(2);
}
if (!sharedPresent()) console.log('../shared/corpus is missing: the referenced nl2bash and tldr cases are left out');
const gate = await createGate();
// Each case is judged by its label in the shell it is read as (bash's when it has none of its own).
const fileAt = process.argv.indexOf('--file');
const cases = precisionCases({ withoutShared: true })
  .filter((c) => fileAt < 0 || c.file === process.argv[fileAt + 1])
  .map((c) => ({ ...c, label: labelFor(c, shell) }));
const ctx = { ...PRECISION_CONTEXT, mode: 'default', channel: 'cli', shell };
const byFile = new Map();
const misses = [];
const wrong = [];
for (const c of cases) {
  const d = gate.evaluate({ tool: 'shell', args: { command: c.command } }, ctx);
  const s = byFile.get(c.file) ?? { readOnly: 0, allowed: 0, others: 0 };
  byFile.set(c.file, s);
  if (c.label === 'read-only') {
    s.readOnly++;
    if (d.level === 'allow') s.allowed++;
    else misses.push({ c, d });
  } else {
    s.others++;
    if (d.level === 'allow') wrong.push({ c, d });
  }
}
const total = { readOnly: 0, allowed: 0, others: 0 };
console.log(`read as ${shell}`);
for (const [file, s] of byFile) {
  for (const k of Object.keys(total)) total[k] += s[k];
  console.log(
    `${file.padEnd(16)} read-only ${String(s.readOnly).padStart(4)}  allowed ${String(s.allowed).padStart(4)}  recall ${((100 * s.allowed) / s.readOnly).toFixed(1)} %   not read-only ${s.others}`,
  );
}
console.log(
  `${'all'.padEnd(16)} read-only ${String(total.readOnly).padStart(4)}  allowed ${String(total.allowed).padStart(4)}  recall ${((100 * total.allowed) / total.readOnly).toFixed(1)} %   not read-only ${total.others}, allowed: ${wrong.length}`,
);
for (const { c } of wrong) console.log(`  ALLOWED ${c.label}: ${JSON.stringify(c.command)}  (${c.file}:${c.line})`);
// The misses by the first finding that asked: what to work on next.
const causes = new Map();
for (const { c, d } of misses) {
  const f = d.findings?.find((x) => x.level !== 'allow') ?? { rule: d.layer ?? 'policy' };
  const list = causes.get(f.rule) ?? [];
  list.push(c);
  causes.set(f.rule, list);
}
console.log('misses by cause:');
for (const [rule, list] of [...causes].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`  ${String(list.length).padStart(4)}  ${rule}`);
  if (process.argv.includes('--misses')) for (const c of list) console.log(`          ${JSON.stringify(c.command)}  (${c.file}:${c.line})`);
}
