/**
 * Every finding id the analyser or the gate can emit is in the catalog (so `shellgate rules ID`
 * and the hook's hint can explain it), every catalog example produces its finding, and every
 * operation says where it came from.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGate, type Decision, type Gate } from '../../src/policy/gate.js';
import { CORE_FINDINGS, findingsWith, type FindingExample, type FindingMeta } from '../../src/findings/catalog.js';
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
    const patterns = [
      /\b(?:makeFinding|finding)\(\s*'([a-z][a-z-]*)'/g,
      /\brule: '([a-z][a-z-]*)'/g,
      /\brule === '([a-z][a-z-]*)'/g,
      /\? '(parse-doubt|parse-error)'|: '(parse-doubt|parse-error)'/g,
    ];
    if (file.endsWith(join('verdict', 'assess.ts'))) patterns.push(/\b(?:add|opAdd)\(\s*'([a-z][a-z-]*)'/g);
    for (const re of patterns) for (const m of text.matchAll(re)) found.set(m[1] ?? m[2], file.slice(ROOT.length + 1));
  }
  return found;
}

function corpusCommands(): string[] {
  const dir = join(ROOT, 'corpus');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => (JSON.parse(l) as { command: string }).command),
    );
}

describe('the finding catalog', () => {
  it("holds every finding id written in the sources, the gate's own included", () => {
    const ids = literalIds();
    // The scan finds the analyser's, the walker's and the gate's ids (else it would prove nothing).
    for (const id of [
      'tool-arguments',
      'unknown-tool',
      'sensitive-path',
      'outside-workspace',
      'network',
      'write',
      'delete',
      'exec-config',
      'dynamic-command',
      'parse-doubt',
      'unknown-effect',
    ]) {
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

/** One gate per set of analyser options the examples name. */
const gates = new Map<string, Promise<Gate>>();
function gateFor(options: Readonly<Record<string, unknown>> | undefined, settings?: Record<string, unknown>): Promise<Gate> {
  const key = JSON.stringify([options ?? null, settings ?? null]);
  if (!gates.has(key)) gates.set(key, createGate({ analyzer: options, settings: settings ? [{ source: 'user', settings }] : [] }));
  return gates.get(key)!;
}

async function run(example: FindingExample, settings?: Record<string, unknown>): Promise<Decision> {
  if (typeof example === 'string') return (await gateFor(undefined, settings)).evaluate({ tool: 'shell', args: { command: example } }, CONTEXT);
  if ('command' in example) return (await gateFor(example.options, settings)).evaluate({ tool: 'shell', args: { command: example.command } }, CONTEXT);
  return (await gateFor(undefined, settings)).evaluate({ tool: example.tool, args: { ...example.args } }, CONTEXT);
}

describe("the finding catalog's examples", () => {
  it('gives every entry an example, or says why no input is meant to produce it', () => {
    for (const [id, m] of Object.entries(CATALOG)) {
      if (m.examples.length === 0) expect(m.noExample?.length ?? 0, id).toBeGreaterThan(20);
      else expect(m.noExample, id).toBeUndefined();
    }
  });

  it('produces each finding from each of its examples', async () => {
    const missed: string[] = [];
    for (const [id, m] of Object.entries(CATALOG)) {
      for (const example of m.examples) {
        const d = await run(example);
        if (!d.findings.some((f) => f.rule === id))
          missed.push(`${id}: ${JSON.stringify(example)} gave ${d.findings.map((f) => f.rule).join(', ') || 'nothing'}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('keeps an unliftable finding asking when an allow rule covers the whole shell tool', async () => {
    const lifted: string[] = [];
    for (const id of findingsWith('unliftable')) {
      for (const example of CATALOG[id].examples) {
        if (typeof example !== 'string' && !('command' in example)) continue;
        const d = await run(example, { permissions: { allow: ['Bash'] } });
        if (d.level === 'allow') lifted.push(`${id}: ${JSON.stringify(example)}`);
      }
    }
    expect(lifted).toEqual([]);
    // The same rule does lift an ordinary finding (else the check above would prove nothing).
    expect((await run('touch notes.txt', { permissions: { allow: ['Bash'] } })).level).toBe('allow');
  });
});
