/**
 * Suggested allow rules for what was asked often — and the check that makes them safe to paste:
 * a suggestion is dropped when it would match any sub-command of any guard rule's `match`
 * example (`Bash(rm *)` matches `rm -rf /`), when it names a program that runs whatever follows
 * it (`bash`, `sudo`, `xargs`: NEVER_APPROVE), or when it cannot be written as a rule that
 * matches what it is meant for.
 */
import { homedir } from 'node:os';
import { parse as shellParse } from 'shell-quote';
import { parseRule, type ParsedRule } from '../policy/rule-syntax.js';
import { NEVER_APPROVE } from '../policy/approvals.js';
import { shellQuote } from '../walk/parallel-jobs.js';
import type { GuardRule } from '../guard/rule-types.js';
import type { Verdict } from '../verdict/types.js';

/** One guard rule's `match` example, as the argv of each of its sub-commands. */
export interface GuardExample {
  rule: string;
  example: string;
  argvs: string[][];
}

export type Analyse = (command: string, cwd?: string) => Pick<Verdict, 'commands' | 'findings'>;

/**
 * Text that can make a program name appear that is not written out: expansions and
 * substitutions, brace expansion, globs, and escapes that spell a character (`$'\x72m'`).
 * Quotes and plain backslashes inside a name (`r''m`, `\rm`) are removed before looking for it.
 */
const MAY_HIDE_A_NAME = /[$`{*?[]|\\[xuU0-7]/;

function mayRun(example: string, program: string): boolean {
  return MAY_HIDE_A_NAME.test(example) || example.replace(/['"\\]/g, '').includes(program);
}

/**
 * Every guard rule's `match` examples, analysed when first needed: the analyser takes
 * milliseconds per example and there are hundreds, so an example is analysed only for a program
 * it may run — one whose name it contains, or any program when its text could hide one.
 */
export class GuardExamples {
  private readonly analysed = new Map<string, GuardExample>();

  constructor(
    private readonly rules: readonly GuardRule[],
    private readonly analyse: Analyse,
  ) {}

  /** The examples that can have a sub-command running `program`. */
  for(program: string): GuardExample[] {
    const out: GuardExample[] = [];
    for (const r of this.rules) {
      for (const example of r.examples.match) {
        if (!mayRun(example, program)) continue;
        const key = `${r.id}\0${example}`;
        let ex = this.analysed.get(key);
        if (!ex) {
          ex = { rule: r.id, example, argvs: exampleArgvs(example, this.analyse) };
          this.analysed.set(key, ex);
        }
        out.push(ex);
      }
    }
    return out;
  }
}

function exampleArgvs(example: string, analyse: Analyse): string[][] {
  try {
    return analyse(example).commands.map((c) => [c.program ?? c.programRaw, ...c.args.map((a) => a.value)]);
  } catch {
    // An example the analyser cannot read is still checked: as its words, split at operators.
    const argvs: string[][] = [[]];
    for (const t of shellParse(example)) {
      if (typeof t === 'string') argvs[argvs.length - 1].push(t);
      else if (argvs[argvs.length - 1].length > 0) argvs.push([]);
    }
    return argvs.filter((a) => a.length > 0);
  }
}

export type RuleCheck = { ok: true } | { ok: false; because: string };

const ANCHORS = { projectRoot: '/', cwd: '/', home: homedir() };

/**
 * Is this Bash rule safe to suggest for `evidence` (an argv it was asked for)? It must parse, match
 * the evidence, and match no sub-command of any guard example.
 */
export function checkBashRule(text: string, evidence: readonly string[], examples: GuardExamples): RuleCheck {
  const program = evidence[0];
  if (program === undefined || NEVER_APPROVE.has(program)) return { ok: false, because: neverApproved(program ?? '') };
  let rule: ParsedRule;
  try {
    rule = parseRule(text, ANCHORS);
  } catch (e) {
    return { ok: false, because: `not a valid rule (${(e as Error).message})` };
  }
  if (!rule.bash || !rule.bash(evidence)) return { ok: false, because: 'the rule would not match the command it is for' };
  for (const ex of examples.for(program)) {
    for (const argv of ex.argvs) {
      if (rule.bash(argv)) return { ok: false, because: `it would allow \`${argv.join(' ')}\`, an example of guard rule ${ex.rule} (\`${ex.example}\`)` };
    }
  }
  return { ok: true };
}

/** Why no rule names an interpreter or wrapper. */
export function neverApproved(program: string): string {
  return `${program} can run any other command: shellgate never suggests or approves a rule for it`;
}

/** `Bash(npm run test *)`: the group's words, then any further words. */
export function groupRule(key: readonly string[]): string {
  return `Bash(${key.map(shellQuote).join(' ')} *)`;
}

/** `Bash(rm -rf build)`: exactly this argv; null when a word cannot be written literally in a rule. */
export function exactRule(argv: readonly string[]): string | null {
  if (argv.some((w) => w.includes('*') || w.includes('[REDACTED') || w === '')) return null;
  return `Bash(${argv.map(shellQuote).join(' ')})`;
}
