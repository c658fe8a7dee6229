/**
 * What a guard rule looks at for one command: the walked command, its operations, its options
 * parsed by meaning, its inline program text, and its neighbours in the verdict.
 */
import type { WalkedCommand } from '../walk/types.js';
import type { Operation } from '../ops/types.js';
import type { SpecTable } from '../programs/load-specs.js';
import { parseArgv, type ParsedArgv } from '../programs/argv.js';
import type { CommandSpec } from '../programs/spec-types.js';
import { inlineCode, interpreterFamily } from '../programs/interpreters.js';
import { isSecretRead } from './predicates/exfiltration-secrets.js';

const NO_OPTIONS: CommandSpec = { summary: '', class: 'unknown' };

/** Lookups over one verdict's subjects, built once so relations stay linear in the command count. */
export class SubjectIndex {
  readonly byPipeline = new Map<number, Subject[]>();
  readonly bySubstitutionOf = new Map<number, Subject[]>();
  readonly byParent = new Map<number, Subject[]>();

  add(s: Subject): void {
    if (s.cmd.context.pipeline) push(this.byPipeline, s.cmd.context.pipeline.id, s);
    if (s.cmd.substitutionOf !== null) push(this.bySubstitutionOf, s.cmd.substitutionOf, s);
    if (s.cmd.parent !== null) push(this.byParent, s.cmd.parent, s);
  }
}

function push(m: Map<number, Subject[]>, k: number, s: Subject): void {
  const list = m.get(k);
  if (list) list.push(s);
  else m.set(k, [s]);
}

const NONE: readonly Subject[] = [];

export class Subject {
  private parsedCache: ParsedArgv | null = null;
  private codeCache: string | null | undefined;
  private familyCache: string | null | undefined;
  private secretReadsCache: Operation[] | undefined;
  private feedersCache: readonly Subject[] | undefined;

  constructor(
    readonly cmd: WalkedCommand,
    readonly ops: Operation[],
    readonly all: Subject[],
    private readonly specs: SpecTable,
    private readonly index: SubjectIndex,
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
    for (const o of this.parsed.options) if (o.name === spelling) return true;
    return false;
  }

  /** Inline program text run by an interpreter, or null. */
  get code(): string | null {
    if (this.codeCache === undefined) {
      this.codeCache = this.cmd.program ? inlineCode(this.cmd.program, this.cmd.args, this.cmd.stdinText) : null;
    }
    return this.codeCache;
  }

  /** The interpreter family of the program (`python`, `pwsh`, `awk`…), or null. */
  get interpreter(): string | null {
    if (this.familyCache === undefined) this.familyCache = this.cmd.program ? interpreterFamily(this.cmd.program) : null;
    return this.familyCache;
  }

  /**
   * The operations that read a secret file. Several exfiltration rules ask, for every command,
   * and matching paths against the secret globs is the costly part: done once per command.
   */
  get secretReads(): readonly Operation[] {
    this.secretReadsCache ??= this.ops.filter(isSecretRead);
    return this.secretReadsCache;
  }

  /** Stages of the same pipeline before or after this one. */
  pipelineNeighbours(direction: 'before' | 'after'): Subject[] {
    const p = this.cmd.context.pipeline;
    if (!p) return [];
    const stages = this.index.byPipeline.get(p.id) ?? [];
    return stages.filter((s) => {
      const q = s.cmd.context.pipeline!;
      if (direction === 'before' ? q.index >= p.index : q.index <= p.index) return false;
      // A wrapper in a stage (`sudo yes | tee f`) is not the stage's program: what it runs is.
      return !(this.index.byParent.get(s.cmd.id) ?? []).some(
        (child) => child.cmd.context.pipeline?.id === p.id && child.cmd.context.pipeline.index === q.index,
      );
    });
  }

  /**
   * Commands that ran in substitutions among this command's words (and what they wrap). A wrapper's
   * words are the wrapped command's (`sudo cat $(…)`): substitutions of the wrappers around this
   * command feed it too.
   */
  feeders(): readonly Subject[] {
    this.feedersCache ??= this.findFeeders();
    return this.feedersCache;
  }

  private findFeeders(): readonly Subject[] {
    let direct = this.index.bySubstitutionOf.get(this.cmd.id) ?? NONE;
    for (let p = this.cmd.parent; p !== null && this.all[p] && this.all[p].cmd.context.via.length <= this.cmd.context.via.length; p = this.all[p].cmd.parent) {
      const more = this.index.bySubstitutionOf.get(p);
      if (more) direct = [...direct, ...more];
      if (this.all[p].cmd.parent === p) break;
    }
    if (direct.length === 0) return NONE;
    const out = [...direct];
    for (const d of direct) out.push(...(this.index.byParent.get(d.cmd.id) ?? []));
    return out;
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
