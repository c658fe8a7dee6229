/**
 * Every finding id the analyser or the gate can emit is in the catalog (so `shellgate rules ID`
 * and the hook's hint can explain it), and every operation says where it came from.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGate, type Gate } from '../../src/policy/gate.js';
import { CORE_FINDINGS, type FindingMeta } from '../../src/verdict/catalog.js';
import { CONTEXT } from '../helpers/analyzer.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CATALOG = CORE_FINDINGS as Record<string, FindingMeta>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Literal ids passed where findings are made: finding('x', makeFinding('x', rule: 'x', and assess.ts's add/opAdd. */
function literalIds(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const patterns = [/\b(?:makeFinding|finding)\(\s*'([a-z][a-z-]*)'/g, /\brule: '([a-z][a-z-]*)'/g, /\brule === '([a-z][a-z-]*)'/g, /\? '(parse-doubt|parse-error)'|: '(parse-doubt|parse-error)'/g];
    if (file.endsWith(join('verdict', 'assess.ts'))) patterns.push(/\b(?:add|opAdd)\(\s*'([a-z][a-z-]*)'/g);
    for (const re of patterns) for (const m of text.matchAll(re)) found.set(m[1] ?? m[2], file.slice(ROOT.length + 1));
  }
  return found;
}

function corpusCommands(): string[] {
  const dir = join(ROOT, 'corpus');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => (JSON.parse(l) as { command: string }).command));
}

describe('the finding catalog', () => {
  it('holds every finding id written in the sources, the gate\'s own included', () => {
    const ids = literalIds();
    // The scan finds the analyser's, the walker's and the gate's ids (else it would prove nothing).
    for (const id of ['tool-arguments', 'unknown-tool', 'sensitive-path', 'outside-workspace', 'network', 'write', 'delete', 'exec-config', 'dynamic-command', 'parse-doubt', 'unknown-effect']) {
      expect(ids.has(id), id).toBe(true);
    }
    const missing = [...ids].filter(([id]) => !(id in CATALOG)).map(([id, file]) => `${id} (${file})`);
    expect(missing).toEqual([]);
  });

  it('holds every id the gate emits on the corpus, the guard examples and tool calls', async () => {
    const gate: Gate = await createGate();
    const guardIds = new Set(gate.rules.map((r) => r.id));
    const commands = [...corpusCommands(), ...gate.rules.flatMap((r) => [...r.examples.match, ...r.examples.noMatch])];
    const seen = new Set<string>();
    const withoutOrigin: string[] = [];
    for (const command of commands) {
      const d = gate.evaluate({ tool: 'shell', args: { command } }, CONTEXT);
      for (const f of d.findings) seen.add(f.rule);
      for (const op of d.verdict?.operations ?? []) if (op.origin === undefined) withoutOrigin.push(`${command}: ${op.kind} ${op.target ?? ''}`);
    }
    const calls = [
      { tool: 'read_file', args: {} },
      { tool: 'read_file', args: { path: '/home/user/.ssh/id_rsa' } },
      { tool: 'write_file', args: { path: '/ws/project/.git/config' } },
      { tool: 'write_file', args: { path: '/etc/hosts' } },
      { tool: 'web_fetch', args: { url: 'https://example.com' } },
      { tool: 'mcp__db__query', args: { sql: 'select 1' } },
      { tool: 'SomethingNew', args: {} },
    ];
    for (const call of calls) for (const f of gate.evaluate(call, CONTEXT).findings) seen.add(f.rule);
    const unknown = [...seen].filter((id) => !guardIds.has(id) && !(id in CATALOG));
    expect(unknown).toEqual([]);
    for (const id of ['tool-arguments', 'unknown-tool', 'sensitive-path', 'exec-config', 'network', 'write']) expect(seen.has(id), id).toBe(true);
    // Every operation says which spec operand or option, or which handler, produced it.
    expect(withoutOrigin.slice(0, 10)).toEqual([]);
  });

  it('explains every entry: a rationale, and a safer way on one line when there is one', () => {
    for (const [id, m] of Object.entries(CATALOG)) {
      expect(m.rationale.length, id).toBeGreaterThan(40);
      if (m.safer !== undefined) {
        expect(m.safer, id).not.toMatch(/\n/);
        expect(m.safer.length, id).toBeGreaterThan(10);
      }
    }
    for (const id of ['sensitive-path', 'dynamic-command', 'unknown-option', 'tool-arguments']) expect(CATALOG[id].safer, id).toBeTruthy();
  });
});
