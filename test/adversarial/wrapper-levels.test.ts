/**
 * Wrappers never lower the level or lose the category (issue 16). For every match example of every
 * guard rule (built-in and any rule file the analyser loads), each wrapper that runs the example as
 * it is — `sudo`, `doas`, `env`, `command`, `nice`, `timeout 9`, `nohup` in front of a single
 * simple command, `sh -c '…'` around any example — gives a verdict at least as strict as the
 * example's own, with a finding of the rule's category. The whole product runs once (a few
 * seconds); fast-check then composes two or three wrappers, seeded so a failure reproduces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';
import { LEVEL_ORDER, type Verdict } from '../../src/index.js';

const a = await analyzer();
const run = (c: string): Verdict => a.analyze(c, CONTEXT);
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Leading `NAME=value` prefixes, and the command after them. */
const PREFIX = /^((?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|[^\s'"])*\s+)*)([\s\S]*)$/;
function splitAssignments(cmd: string): { assignments: string; rest: string } {
  const m = PREFIX.exec(cmd)!;
  return { assignments: m[1], rest: m[2] };
}

/** Builtins that change this shell, or words that open a compound command: no wrapper runs them. */
const NOT_WRAPPABLE =
  /^(cd|pushd|popd|export|declare|typeset|local|readonly|set|shopt|alias|unalias|source|\.|eval|exec|trap|ulimit|umask|hash|builtin|command|time|coproc|function|if|for|while|until|case|select|\[\[|\(\(|[({!:])(\s|$)/;

/**
 * A single simple command a prefix wrapper can run: one walked command with a program, no list,
 * pipeline or subshell outside quotes, not a builtin that acts on this shell. (Redirects stay: the
 * outer shell opens them either way.)
 */
function isSimple(example: string, v: Verdict): boolean {
  const { rest } = splitAssignments(example);
  const unquoted = rest.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '');
  return v.commands.length === 1 && v.commands[0].program !== null && !/[|;&()`\n]/.test(unquoted) && !NOT_WRAPPABLE.test(rest);
}

interface Wrapper {
  name: string;
  /** Only in front of a single simple command. */
  simpleOnly: boolean;
  wrap: (cmd: string) => string;
}

/**
 * A prefix wrapper keeps the example's meaning only if the example's prefix assignments still reach
 * the program: in front of the wrapper for those that pass their environment on (nice, timeout…),
 * after `sudo`/`env` (which take NAME=value operands), through `env` under `doas` (doas resets the
 * environment and takes no assignments).
 */
function prefix(name: string, word: string, place: 'before' | 'after' | 'env' = 'before'): Wrapper {
  return {
    name,
    simpleOnly: true,
    wrap: (cmd) => {
      const { assignments, rest } = splitAssignments(cmd);
      if (assignments === '') return `${word} ${rest}`;
      if (place === 'after') return `${word} ${assignments}${rest}`;
      if (place === 'env') return `${word} env ${assignments}${rest}`;
      return `${assignments}${word} ${rest}`;
    },
  };
}

const WRAPPERS: Wrapper[] = [
  prefix('sudo', 'sudo', 'after'),
  prefix('doas', 'doas', 'env'),
  prefix('env', 'env', 'after'),
  prefix('command', 'command'),
  prefix('nice', 'nice'),
  prefix('timeout 9', 'timeout 9'),
  prefix('nohup', 'nohup'),
  { name: "sh -c '…'", simpleOnly: false, wrap: (cmd) => `sh -c ${q(cmd)}` },
];

/**
 * Walker limits that cannot be fixed yet, each with its reason: `rule|example|wrapper`. Each entry
 * fails the test once the wrapped form passes, so the list only shrinks.
 */
const KNOWN_EXCEPTIONS = new Map<string, string>([]);

interface Case {
  rule: string;
  category: string;
  example: string;
  base: Verdict;
  simple: boolean;
}

const CASES: Case[] = a.rules.flatMap((r) =>
  r.examples.match.map((example) => {
    const base = run(example);
    return { rule: r.id, category: r.category, example, base, simple: isSimple(example, base) };
  }),
);

/** What is wrong with `wrapped` compared with the example alone; null when nothing is. */
function problem(c: Case, wrapped: string): string | null {
  const v = run(wrapped);
  const lowered = LEVEL_ORDER[v.level] < LEVEL_ORDER[c.base.level];
  const keepsCategory = v.findings.some((f) => f.category === c.category);
  if (!lowered && keepsCategory) return null;
  const why = [lowered ? `level ${c.base.level} → ${v.level}` : '', keepsCategory ? '' : `no ${c.category} finding`].filter(Boolean).join(', ');
  return `${c.rule}: ${JSON.stringify(wrapped)} (example ${JSON.stringify(c.example)}): ${why}; findings: ${v.findings.map((f) => f.rule).join(', ')}`;
}

describe('wrappers never lower the level or lose the category', () => {
  it('over every match example of every rule × every wrapper that applies', () => {
    const failures: string[] = [];
    const fixed: string[] = [];
    let checked = 0;
    for (const c of CASES) {
      for (const w of WRAPPERS) {
        if (w.simpleOnly && !c.simple) continue;
        checked++;
        const key = `${c.rule}|${c.example}|${w.name}`;
        const p = problem(c, w.wrap(c.example));
        if (KNOWN_EXCEPTIONS.has(key)) {
          if (p === null) fixed.push(`${key} passes now: remove it from KNOWN_EXCEPTIONS`);
        } else if (p !== null) failures.push(`[${w.name}] ${p}`);
      }
    }
    // Most examples are single simple commands: the product is several thousand verdicts.
    expect(checked).toBeGreaterThan(CASES.length * 4);
    expect(failures).toEqual([]);
    expect(fixed).toEqual([]);
  });

  it('composed wrappers (two or three, any order) keep the level and the category', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CASES), fc.array(fc.constantFrom(...WRAPPERS), { minLength: 2, maxLength: 3 }), (c, ws) => {
        let cmd = c.example;
        let stillSimple = c.simple;
        for (const w of ws) {
          if (w.simpleOnly && !stillSimple) continue;
          cmd = w.wrap(cmd);
          stillSimple = stillSimple && w.simpleOnly;
        }
        expect(problem(c, cmd)).toBeNull();
      }),
      { numRuns: 800, seed: 16 },
    );
  });

  it('passes the prefix environment through a wrapper, except through one that resets it', () => {
    // DOCKER_HOST set in front of nice reaches docker: the remote daemon is the one that runs it.
    expect(run('DOCKER_HOST=tcp://198.51.100.4:2375 nice docker run --privileged -v /:/host alpine sh').findings.map((f) => f.rule)).toContain(
      'remote-exec/remote-docker-host-takeover',
    );
    // sudo resets the environment (env_reset): LD_PRELOAD in front of sudo does not reach ls.
    expect(run('LD_PRELOAD=/tmp/x.so sudo ls').findings.filter((f) => f.category === 'privilege-escalation')).toEqual([]);
  });
});
