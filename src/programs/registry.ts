/**
 * What the analyser knows about a program, in one place: its spec (rules/programs/<name>.json),
 * its tags (what it is: a wrapper, a shell, an interpreter…) and its hooks (what data cannot say,
 * src/programs/hooks/). Every list of programs the analyser keeps — shells, privilege wrappers,
 * edit programs, fetchers — is `registry.tagged(tag)`, so adding a shell is adding its file.
 *
 * Tags come from rules/program-tags.json, an index of every file's `tags` that
 * scripts/specs/tag-index.mjs writes (a test fails when it is stale): reading 700 spec files at
 * start-up to find twenty shells would cost more than the analysis.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShellgateError } from '../errors.js';
import type { ProgramHooks } from './hook-types.js';
import { HOOKS, TAG_HOOKS } from './hooks/index.js';
import { defaultSpecs, PROGRAM_TAGS, RULES_DIR, type SpecTable } from './load-specs.js';
import type { CommandSpec, ProgramTag } from './spec-types.js';

export type { ProgramTag } from './spec-types.js';

export interface ProgramEntry {
  name: string;
  /** How the program reads its argv; undefined for a program the specs do not describe. */
  spec: CommandSpec | undefined;
  tags: ReadonlySet<ProgramTag>;
  /** Its own hooks, else those of its kind (every shell reads `-c` the same way); `{}` for none. */
  hooks: ProgramHooks;
}

export interface ProgramRegistry {
  get(name: string): ProgramEntry;
  /** Every program with the tag. */
  tagged(tag: ProgramTag): ReadonlySet<string>;
  has(name: string, tag: ProgramTag): boolean;
}

export const TAG_INDEX_FILE = join(RULES_DIR, 'program-tags.json');

const NO_TAGS: ReadonlySet<ProgramTag> = new Set();
const NO_HOOKS: ProgramHooks = {};

/** rules/program-tags.json, checked: program → tags. */
function readTagIndex(file: string): Map<string, ReadonlySet<ProgramTag>> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ShellgateError('config', `${file}: cannot read the program tag index (${(e as Error).message}); run node scripts/specs/tag-index.mjs`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ShellgateError('config', `${file}: expected an object of program → tags`);
  const index = new Map<string, ReadonlySet<ProgramTag>>();
  for (const [program, tags] of Object.entries(data)) {
    if (!Array.isArray(tags) || tags.some((t) => !PROGRAM_TAGS.has(t as ProgramTag))) {
      throw new ShellgateError('config', `${file}: program "${program}": tags must be a list of ${[...PROGRAM_TAGS].join(', ')}`);
    }
    index.set(program, new Set(tags as ProgramTag[]));
  }
  return index;
}

/** Hooks in the order they apply: the program's own, then its first tag's that has some. */
function hooksOf(name: string, tags: ReadonlySet<ProgramTag>): ProgramHooks {
  if (Object.prototype.hasOwnProperty.call(HOOKS, name)) return HOOKS[name];
  for (const t of tags) if (TAG_HOOKS[t] !== undefined) return TAG_HOOKS[t]!;
  return NO_HOOKS;
}

class Registry implements ProgramRegistry {
  private index: Map<string, ReadonlySet<ProgramTag>> | null = null;
  private readonly byTag = new Map<ProgramTag, ReadonlySet<string>>();
  private readonly entries = new Map<string, ProgramEntry>();

  constructor(
    private readonly specs: () => SpecTable,
    private readonly indexFile: string,
  ) {}

  private tagsOf(name: string): ReadonlySet<ProgramTag> {
    this.index ??= readTagIndex(this.indexFile);
    return this.index.get(name) ?? NO_TAGS;
  }

  get(name: string): ProgramEntry {
    let entry = this.entries.get(name);
    if (entry === undefined) {
      const tags = this.tagsOf(name);
      const specs = this.specs;
      let spec: CommandSpec | undefined | null = null;
      entry = {
        name,
        tags,
        hooks: hooksOf(name, tags),
        // Read when asked: most callers only want the tags.
        get spec() {
          if (spec === null) spec = specs().get(name);
          return spec;
        },
      };
      if (this.entries.size >= 4096) this.entries.clear();
      this.entries.set(name, entry);
    }
    return entry;
  }

  has(name: string, tag: ProgramTag): boolean {
    return this.tagsOf(name).has(tag);
  }

  tagged(tag: ProgramTag): ReadonlySet<string> {
    let set = this.byTag.get(tag);
    if (set === undefined) {
      this.index ??= readTagIndex(this.indexFile);
      set = new Set([...this.index].filter(([, tags]) => tags.has(tag)).map(([p]) => p));
      this.byTag.set(tag, set);
    }
    return set;
  }
}

/** A registry over a spec table and a tag index (tests build one over a folder of their own). */
export function createRegistry(specs: () => SpecTable, indexFile: string = TAG_INDEX_FILE): ProgramRegistry {
  return new Registry(specs, indexFile);
}

/** The built-in programs: specs from rules/programs/, tags from rules/program-tags.json. */
export const registry: ProgramRegistry = createRegistry(defaultSpecs);
