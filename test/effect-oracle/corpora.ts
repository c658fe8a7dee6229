/**
 * Every corpus the effect oracle runs: the shared real-world corpora (NL2Bash, tldr), the
 * project's corpus, the precision corpus, every spec's and guard rule's examples, the grammar
 * fuzzer's commands and generated inline-code programs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { bashList } from '../adversarial/bash-grammar.js';
import { nl2bash, SHARED, tldr } from '../helpers/shared-corpus.js';
import { precisionCases } from '../../scripts/lib/precision-corpus.mjs';
import { inlineCodePrograms } from './inline-code.js';
import { drawn } from '../helpers/stable-draw.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Item {
  source: string;
  command: string;
}

const jsonlCommands = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { command: string }).command);

function specExamples(): string[] {
  const dir = join(ROOT, 'rules', 'programs');
  const out: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const spec = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { examples?: { command: string }[] };
    for (const e of spec.examples ?? []) out.push(e.command);
  }
  return out;
}

function ruleExamples(): string[] {
  const dir = join(ROOT, 'rules', 'builtin');
  const out: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const file = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { rules?: { examples?: { match?: string[]; noMatch?: string[] } }[] };
    for (const r of file.rules ?? []) out.push(...(r.examples?.match ?? []), ...(r.examples?.noMatch ?? []));
  }
  return out;
}

/** Whether ../shared/corpus is there (the shared corpora are never copied into the repository). */
export const sharedPresent = (): boolean => existsSync(join(SHARED, 'nl2bash.txt')) && existsSync(join(SHARED, 'tldr.tsv'));

/** Corpus name → its commands, in file order. Sizes: how many fuzzed and generated commands. */
export function corpora(sizes = { fuzz: 2000, inlinePerLanguage: 150 }): Map<string, string[]> {
  const m = new Map<string, string[]>();
  if (sharedPresent()) {
    m.set('nl2bash', nl2bash());
    m.set(
      'tldr',
      tldr().map((t) => t.command),
    );
  }
  const projectDir = join(ROOT, 'corpus');
  m.set(
    'project',
    readdirSync(projectDir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .flatMap((f) => jsonlCommands(join(projectDir, f))),
  );
  // the precision corpus names NL2Bash and tldr lines by reference: it needs ../shared too
  if (sharedPresent())
    m.set(
      'precision',
      precisionCases().map((c) => c.command),
    );
  m.set('spec examples', specExamples());
  m.set('rule examples', ruleExamples());
  m.set('grammar fuzz', fc.sample(bashList, { numRuns: sizes.fuzz, seed: 2027 }));
  m.set('inline code', inlineCodePrograms(sizes.inlinePerLanguage));
  return m;
}

/** Every command once (the first corpus that holds it keeps it), without NULs (bash cannot take them). */
export function items(cs: Map<string, string[]>): Item[] {
  const seen = new Set<string>();
  const out: Item[] = [];
  for (const [source, commands] of cs) {
    for (const command of commands) {
      if (command.includes('\0') || command.trim() === '' || seen.has(command)) continue;
      seen.add(command);
      out.push({ source, command });
    }
  }
  return out;
}

/**
 * A sample of each corpus at its rate (`per`: corpus → share of its commands, 0…1), drawn by each
 * command's text (helpers/stable-draw.ts): adding a command to a corpus never changes whether
 * another one is drawn.
 */
export function sample(all: Item[], per: Record<string, number>, seed = 27): Item[] {
  return all.filter((it) => drawn(it.command, per[it.source] ?? 0, `effect-oracle ${seed} ${it.source}`));
}
