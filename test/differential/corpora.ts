/**
 * The commands the parser differential runs over: every corpus, the big ones sampled every k-th
 * line (deterministic, so a failure reproduces), duplicates dropped (the first source keeps it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, nl2bash, tldr } from '../helpers/shared-corpus.js';

export interface CorpusCase {
  source: string;
  command: string;
}

const OWN = join(import.meta.dirname, '..', '..', 'corpus');

/** Every `step`-th item from the first. */
function every<T>(xs: T[], step: number): T[] {
  return xs.filter((_, i) => i % step === 0);
}

const commandsOf = (name: string) =>
  jsonl<{ command?: unknown }>(name)
    .map((r) => r.command)
    .filter((c): c is string => typeof c === 'string');

/** `steps` says how sparsely to sample each big corpus (1 = all of it). */
export function differentialCases(steps: { nl2bash: number; tldr: number; guard: number; atomic: number }): CorpusCase[] {
  const own: string[] = [];
  for (const f of readdirSync(OWN)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    for (const l of readFileSync(join(OWN, f), 'utf8').split('\n')) {
      if (l.trim() === '') continue;
      const c = (JSON.parse(l) as { command?: unknown }).command;
      if (typeof c === 'string') own.push(c);
    }
  }
  const sources: [string, string[]][] = [
    ['project corpus', own],
    ['bypass-cases', commandsOf('bypass-cases.jsonl')],
    ['peer-cases', commandsOf('peer-cases.jsonl')],
    ['guard-cases', every(commandsOf('guard-cases.jsonl'), steps.guard)],
    ['atomic-red-team', every(commandsOf('atomic-red-team.jsonl'), steps.atomic)],
    ['nl2bash', every(nl2bash(), steps.nl2bash)],
    [
      'tldr',
      every(
        tldr().map((t) => t.command),
        steps.tldr,
      ),
    ],
  ];
  const seen = new Set<string>();
  const out: CorpusCase[] = [];
  for (const [source, commands] of sources) {
    for (const command of commands) {
      if (seen.has(command)) continue;
      seen.add(command);
      out.push({ source, command });
    }
  }
  return out;
}
