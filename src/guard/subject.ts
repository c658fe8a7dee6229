/**
 * What a guard rule looks at for one command: the walked command, its operations, its options
 * parsed by meaning, its inline program text, and its neighbours in the verdict.
 */
import type { WalkedCommand } from '../walk/types.js';
import type { Operation } from '../ops/types.js';
import type { SpecTable } from '../ops/load-specs.js';
import { parseArgv, type ParsedArgv } from '../ops/parse-argv.js';
import type { CommandSpec } from '../ops/spec-types.js';
import { inlineCode } from '../ops/interpreters.js';

const NO_OPTIONS: CommandSpec = { summary: '', class: 'unknown' };


export class Subject {
  private parsedCache: ParsedArgv | null = null;
  private codeCache: string | null | undefined;

  constructor(
    readonly cmd: WalkedCommand,
    readonly ops: Operation[],
    readonly all: Subject[],
    private readonly specs: SpecTable,
  ) {}

  get parsed(): ParsedArgv {
    if (!this.parsedCache) {
      const spec = (this.cmd.program && this.specs.get(this.cmd.program)) || NO_OPTIONS;
      this.parsedCache = parseArgv(spec, this.cmd.args);
    }
    return this.parsedCache;
  }

  /** Option spellings present, normalised (`-rf` → `-r`, `-f`; `--force=x` → `--force`). */
  hasFlag(spelling: string): boolean {
    return this.parsed.options.some((o) => o.name === spelling);
  }

  /** Inline program text run by an interpreter, or null. */
  get code(): string | null {
    if (this.codeCache === undefined) {
      this.codeCache = this.cmd.program ? inlineCode(this.cmd.program, this.cmd.args, this.cmd.stdinText) : null;
    }
    return this.codeCache;
  }

  /** Stages of the same pipeline before (negative) or after (positive) this one. */
  pipelineNeighbours(direction: 'before' | 'after'): Subject[] {
    const p = this.cmd.context.pipeline;
    if (!p) return [];
    return this.all.filter((s) => {
      const q = s.cmd.context.pipeline;
      return q !== null && q.id === p.id && (direction === 'before' ? q.index < p.index : q.index > p.index);
    });
  }

  /** Commands that ran in substitutions among this command's words (and what they wrap). */
  feeders(): Subject[] {
    const direct = new Set(this.all.filter((s) => s.cmd.substitutionOf === this.cmd.id).map((s) => s.cmd.id));
    return this.all.filter((s) => direct.has(s.cmd.id) || (s.cmd.parent !== null && direct.has(s.cmd.parent)));
  }

  /** Wrappers around this command, innermost first. */
  ancestors(): Subject[] {
    const out: Subject[] = [];
    for (let p = this.cmd.parent; p !== null; p = this.all[p]?.cmd.parent ?? null) {
      const s = this.all[p];
      if (!s || out.includes(s)) break;
      out.push(s);
    }
    return out;
  }

  /** Paths this command touches. */
  paths(): Set<string> {
    return new Set(this.ops.map((o) => o.path).filter((p): p is string => p !== undefined));
  }
}
