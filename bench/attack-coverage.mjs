// Atomic Red Team coverage per tactic: how many command scripts the gate (no settings) denies, asks
// about with a guard category, asks about with only generic findings, or allows.
// Usage: npm run build && node bench/attack-coverage.mjs [--generic | --allowed]
//   --generic: every script outside discovery that asks with only generic findings (what to cover next)
//   --allowed: every script outside discovery that is allowed
import { createGate, GUARD_CATEGORIES } from '../dist/index.js';
import { coverage, discoveryOnly, genericShare } from '../scripts/lib/attack-coverage.mjs';

const gate = await createGate();
const { byTactic, total, outsideDiscovery, cases } = coverage(gate, GUARD_CATEGORIES);
const pct = (n, d) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)} %`);
const line = (name, r) =>
  `${name.padEnd(22)} ${String(r.tests).padStart(5)} ${String(r.deny).padStart(5)} ${String(r.specific).padStart(13)} ${String(r.generic).padStart(12)} ${String(r.allow).padStart(6)}   ${pct(r.generic, r.generic + r.specific)}`;
console.log(`${'tactic'.padEnd(22)} tests  deny  ask+category  ask-generic  allow   generic share of asks`);
for (const [t, r] of [...byTactic].sort((a, b) => a[0].localeCompare(b[0]))) console.log(line(t, r));
console.log(line('all tests', total));
console.log(line('outside discovery', outsideDiscovery));
console.log(`generic-only share of asks outside discovery: ${(100 * genericShare(outsideDiscovery)).toFixed(1)} %`);
const want = process.argv.includes('--generic') ? 'generic' : process.argv.includes('--allowed') ? 'allow' : null;
if (want)
  for (const c of cases)
    if (c.outcome === want && !discoveryOnly(c))
      console.log(
        `${c.technique} [${c.tactics.join(',')}] ${c.test}: ${[...new Set((c.decision.findings ?? []).map((f) => f.rule))].join(', ')}\n    ${c.command.replace(/\n/g, '\n    ')}`,
      );
