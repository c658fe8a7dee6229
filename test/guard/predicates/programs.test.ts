/**
 * Predicates may declare the only programs they can hold for (predicates/programs.ts), and the
 * rule loader then tests the rules that use them only against those programs. A declaration that
 * is too narrow would silently drop detections, so each is checked here against real commands:
 * every rule's examples, the project corpus and NL2Bash. The glob matcher that replaced
 * picomatch's in the guard is checked to answer as picomatch does on the same inputs.
 */
import { describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { analyzer, CONTEXT, HOME, projectCommands } from '../../helpers/analyzer.js';
import { nl2bash } from '../../helpers/shared-corpus.js';
import type { Subject } from '../../../src/guard/subject.js';
import { buildSubjects } from '../../../src/guard/apply.js';
import { PREDICATES } from '../../../src/guard/predicates/index.js';
import type { ProgramPredicate } from '../../../src/guard/predicates/programs.js';
import { loadRules, programsOf } from '../../../src/guard/load-rules.js';
import { globMatcher } from '../../../src/guard/glob.js';
import { defaultSpecs } from '../../../src/programs/load-specs.js';
import type { Matcher } from '../../../src/guard/rule-types.js';
import type { Verdict } from '../../../src/verdict/types.js';

const a = await analyzer();
const ruleSet = loadRules([], () => HOME);

/** Subjects the way applyGuards builds them. */
/** Subjects exactly as applyGuards builds them. */
function subjects(v: Verdict): Subject[] {
  return buildSubjects(v.commands, v.operations, defaultSpecs());
}

const projectCases = projectCommands();

const commands = [...ruleSet.rules.flatMap((r) => [...r.examples.match, ...r.examples.noMatch]), ...projectCases, ...nl2bash().slice(0, 3000)];
const allSubjects = commands.flatMap((cmd) => subjects(a.analyze(cmd, CONTEXT)));

const declared = Object.entries(PREDICATES).filter((e): e is [string, ProgramPredicate] => e[1].programs !== undefined);

describe('predicates that declare their programs', () => {
  it('never hold, ungated, for a program outside the declaration', () => {
    const outside: string[] = [];
    const held = new Map<string, number>();
    for (const s of allSubjects) {
      for (const [name, p] of declared) {
        if (!p.unguarded(s)) continue;
        held.set(name, (held.get(name) ?? 0) + 1);
        if (s.cmd.program === null || !p.programs.has(s.cmd.program)) outside.push(`${name}: ${s.cmd.program ?? s.cmd.programRaw} in ${s.cmd.text}`);
      }
    }
    expect(outside).toEqual([]);
    expect(declared.length).toBeGreaterThan(30);
    // Each was seen to hold (rule examples see to that): the check above said something about it.
    expect(declared.map(([name]) => name).filter((name) => !held.has(name))).toEqual([]);
  });

  it('index every rule so that it never matches a program it is not tested for', () => {
    const missed: string[] = [];
    let matches = 0;
    for (const s of allSubjects) {
      for (const r of ruleSet.rules) {
        if (!r.test(s)) continue;
        matches++;
        const indexed = s.cmd.program !== null && ruleSet.byProgram.get(s.cmd.program)?.includes(r);
        if (!indexed && !ruleSet.anyProgram.includes(r)) missed.push(`${r.id}: ${s.cmd.text}`);
      }
    }
    expect(missed).toEqual([]);
    expect(matches).toBeGreaterThan(ruleSet.rules.length);
  });
});

describe('programsOf', () => {
  const defs = { lists: { shells: ['sh', 'bash'] }, macros: { shell: { program: '@shells' } } };
  const set = (m: Matcher) => {
    const p = programsOf(m, defs);
    return p === null ? null : [...p].sort();
  };

  it('reads programs from `program`, macros, declared predicates, `all` and fully restricted `any`', () => {
    expect(set({ program: 'ls' })).toEqual(['ls']);
    expect(set({ macro: 'shell' })).toEqual(['bash', 'sh']);
    expect(set({ predicate: 'shutdown/kills-init-or-all' })).toEqual(['kill']);
    expect(set({ all: [{ argRegex: 'x' }, { predicate: 'shutdown/kills-init-or-all' }] })).toEqual(['kill']);
    expect(set({ any: [{ program: 'ls' }, { predicate: 'shutdown/kills-init-or-all' }] })).toEqual(['kill', 'ls']);
  });

  it('intersects conditions that all must hold', () => {
    expect(set({ program: ['kill', 'ls'], predicate: 'shutdown/kills-init-or-all' })).toEqual(['kill']);
  });

  it('knows nothing from undeclared predicates, `not`, or an `any` with an open branch', () => {
    expect(set({ predicate: 'exfiltration/uploads-secret' })).toBeNull();
    expect(set({ not: { program: 'ls' } })).toBeNull();
    expect(set({ any: [{ program: 'ls' }, { predicate: 'exfiltration/uploads-secret' }] })).toBeNull();
    expect(set({ pipedFrom: { program: 'ls' } })).toBeNull();
  });
});

describe('globMatcher', () => {
  /** Every glob list the built-in rules give (`arg`, operation and redirect paths, hosts). */
  function globLists(m: unknown, out: string[][]): string[][] {
    if (Array.isArray(m)) for (const x of m) globLists(x, out);
    else if (typeof m === 'object' && m !== null) {
      for (const [k, v] of Object.entries(m)) {
        if ((k === 'arg' || k === 'path' || k === 'host') && (typeof v === 'string' || Array.isArray(v))) {
          const names = (Array.isArray(v) ? v : [v]).flatMap((n: string) => (n.startsWith('@') ? (ruleSet.defs.lists[n.slice(1)] ?? []) : [n]));
          out.push(names.map((n) => (n.startsWith('~') ? HOME + n.slice(1) : n)));
        } else globLists(v, out);
      }
    }
    return out;
  }

  it("matches wherever picomatch(…, { dot: true }) does for the rules' globs on the corpus' paths and words", () => {
    const lists = globLists([ruleSet.rules.map((r) => r.match), ruleSet.defs.macros], []).filter((l) => l.length > 0);
    expect(lists.length).toBeGreaterThan(50);
    const inputs = new Set<string>(['', '.', '/', '//', './x', 'x/', '/etc/', '/etc//passwd', '~', '~/.ssh', `${HOME}/.ssh/`]);
    for (const s of allSubjects) {
      for (const arg of s.cmd.args) inputs.add(arg.value);
      for (const o of s.ops) if (o.path !== undefined) inputs.add(o.path);
      for (const r of s.cmd.redirects) if (r.path !== null) inputs.add(r.path.value);
    }
    // Where src/guard/linear-glob.ts differs on purpose: a `.`/`..` segment is named only by literals,
    // and `//` is `/`; and where ours matches more (`/etc/cron.*/**` on `/etc/cron.d`), the guard is stricter.
    const dotSegment = (x: string) => x.split('/').some((s) => s === '.' || s === '..');
    const differ: string[] = [];
    for (const list of lists) {
      const ours = globMatcher(list);
      const theirs = picomatch(list, { dot: true });
      for (const x of inputs) if (theirs(x) && !ours(x) && !dotSegment(x) && !x.includes('//')) differ.push(`${JSON.stringify(list)} on ${JSON.stringify(x)}`);
    }
    expect(differ).toEqual([]);
  });
});
