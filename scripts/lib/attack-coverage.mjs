// Atomic Red Team coverage (issue 16): every Linux/macOS test's command script from
// ../shared/corpus/atomic-red-team.jsonl (read from there, never copied), and how shellgate's gate
// answers it with no settings: deny, ask with a finding of a guard category (a specific danger,
// which no allow rule or mode lifts silently), ask with only generic findings (unknown program, a
// write…, which an allow rule or a permissive mode lifts), or allow. Read by bench/attack-coverage.mjs
// and test/corpora/atomic-red-team.test.ts.
import { readFileSync } from 'node:fs';

const FILE = new URL('../../../shared/corpus/atomic-red-team.jsonl', import.meta.url);

export const ATTACK_CONTEXT = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };

/** Each test's whole command script (not its cleanup, not the per-line split). */
export function attackScripts() {
  return readFileSync(FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .filter((r) => r.granularity === 'script' && r.part === 'command');
}

/** True when every tactic of the test is discovery: reading the system is what it does. */
export const discoveryOnly = (r) => r.tactics.every((t) => t === 'discovery');

/** `deny`, `specific` (asks with a guard category), `generic` (asks with none) or `allow`. */
export function outcome(decision, guardCategories) {
  if (decision.level === 'deny') return 'deny';
  if (decision.level === 'allow') return 'allow';
  const specific = (decision.findings ?? []).some((f) => f.level !== 'allow' && guardCategories.includes(f.category));
  return specific ? 'specific' : 'generic';
}

/** Per tactic (a test counts once under each of its tactics) and in total. */
export function coverage(gate, guardCategories, scripts = attackScripts()) {
  const ctx = { ...ATTACK_CONTEXT, mode: 'default', channel: 'cli' };
  const empty = () => ({ tests: 0, deny: 0, specific: 0, generic: 0, allow: 0 });
  const byTactic = new Map();
  const total = empty();
  const outsideDiscovery = empty();
  const cases = [];
  for (const r of scripts) {
    const d = gate.evaluate({ tool: 'shell', args: { command: r.command } }, ctx);
    const k = outcome(d, guardCategories);
    cases.push({ ...r, outcome: k, decision: d });
    for (const t of r.tactics) {
      const row = byTactic.get(t) ?? empty();
      row.tests++;
      row[k]++;
      byTactic.set(t, row);
    }
    total.tests++;
    total[k]++;
    if (!discoveryOnly(r)) {
      outsideDiscovery.tests++;
      outsideDiscovery[k]++;
    }
  }
  return { byTactic, total, outsideDiscovery, cases };
}

/** The share of asks that carry only generic findings. */
export const genericShare = (row) => (row.generic + row.specific === 0 ? 0 : row.generic / (row.generic + row.specific));
