/**
 * Differential test: shellgate's own parser (tree-sitter-bash + src/syntax/convert-*) against a
 * second front end (bash-parser + src/syntax/bash-parser-adapter.ts) over the command corpora.
 * Both give shellgate's AST; structureOf() reduces it to what matters (commands, words as
 * statically expanded, redirects, operators) and compareStructures() finds the first difference.
 *
 * - Lines shellgate's parser reports issues for are skipped (both would be guessing).
 * - bash-parser rejects some valid bash (`|&`, `<<<`, `$'…'`, arrays, `2>&1 >f`…): those are
 *   counted as bash-parser failures, not disagreements.
 * - Every other disagreement must be listed in known.json with the reason (which parser is right
 *   and why). Unlisted disagreements fail, and so do listed cases that agree now or whose first
 *   difference changed (update known.json: set SHELLGATE_DIFF_DUMP=/tmp/diff.json to get the list).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import { loadBashParser, parseWithBashParser, type AdapterRepair } from '../../src/syntax/bash-parser-adapter.js';
import { compareStructures, structureOf } from '../../src/expand/structure.js';

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');
const OWN_CORPUS = join(import.meta.dirname, '..', '..', 'corpus');
/** Every TLDR_STEP-th tldr example (deterministic; about 9,900 of 29,597). */
const TLDR_STEP = 3;

interface Known {
  command: string;
  difference: string;
  reason: string;
}

function read(path: string): string {
  if (!existsSync(path)) throw new Error(`corpus file missing: ${path}`);
  return readFileSync(path, 'utf8');
}

function jsonlCommands(path: string): string[] {
  return read(path)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { command?: unknown }).command)
    .filter((c): c is string => typeof c === 'string');
}

function corpus(): string[] {
  const out: string[] = [];
  for (const f of readdirSync(OWN_CORPUS)
    .filter((f) => f.endsWith('.jsonl'))
    .sort())
    out.push(...jsonlCommands(join(OWN_CORPUS, f)));
  out.push(
    ...read(join(SHARED, 'nl2bash.txt'))
      .split('\n')
      .filter((l) => l !== ''),
  );
  const tldr = read(join(SHARED, 'tldr.tsv'))
    .split('\n')
    .slice(1)
    .filter((l) => l !== '');
  tldr.forEach((l, i) => {
    if (i % TLDR_STEP === 0) out.push(l.split('\t')[2] ?? '');
  });
  out.push(...jsonlCommands(join(SHARED, 'bypass-cases.jsonl')));
  out.push(...jsonlCommands(join(SHARED, 'peer-cases.jsonl')));
  return [...new Set(out)];
}

const known: Known[] = JSON.parse(readFileSync(join(import.meta.dirname, 'known.json'), 'utf8')) as Known[];

const parser = await BashParser.create();
await loadBashParser();

describe('differential: tree-sitter-bash vs bash-parser', () => {
  it('known.json is well formed: one entry per command, each with a difference and a reason', () => {
    const seen = new Set<string>();
    const bad: string[] = [];
    for (const k of known) {
      if (typeof k.command !== 'string' || !k.difference || !k.reason) bad.push(JSON.stringify(k));
      if (seen.has(k.command)) bad.push(`duplicate: ${k.command}`);
      seen.add(k.command);
    }
    expect(bad).toEqual([]);
  });

  it('the two parsers agree on the corpora, except the listed cases', () => {
    const cases = corpus();
    const listed = new Map(known.map((k) => [k.command, k]));
    let skipped = 0;
    let failures = 0;
    let agreements = 0;
    const repairedCases = new Map<AdapterRepair, number>();
    let repaired = 0;
    let listedDisagreements = 0;
    const unlisted: string[] = [];
    const changed: string[] = [];
    const stale: string[] = [];
    const dump: Known[] = [];

    for (const command of cases) {
      const own = parser.parse(command);
      if (own.issues.length > 0) {
        skipped++;
        continue;
      }
      const repairs = new Set<AdapterRepair>();
      const other = parseWithBashParser(command, repairs);
      if (!other) {
        failures++;
        continue;
      }
      const difference = compareStructures(structureOf(own.script), structureOf(other));
      const entry = listed.get(command);
      if (difference === null) {
        agreements++;
        if (repairs.size > 0) repaired++;
        for (const r of repairs) repairedCases.set(r, (repairedCases.get(r) ?? 0) + 1);
        if (entry) stale.push(`${JSON.stringify(command)}: listed (${entry.difference}) but the parsers agree now`);
        continue;
      }
      dump.push({ command, difference, reason: entry?.reason ?? '' });
      if (!entry) unlisted.push(`${JSON.stringify(command)}\n    ${difference}`);
      else if (entry.difference !== difference) changed.push(`${JSON.stringify(command)}\n    listed: ${entry.difference}\n    now:    ${difference}`);
      else listedDisagreements++;
    }
    const seen = new Set(cases);
    for (const k of known) if (!seen.has(k.command)) stale.push(`${JSON.stringify(k.command)}: listed but not in the corpora`);

    if (process.env.SHELLGATE_DIFF_DUMP) writeFileSync(process.env.SHELLGATE_DIFF_DUMP, JSON.stringify(dump, null, 2) + '\n');

    const repairList = [...repairedCases].map(([r, n]) => `${r} ${n}`).join(', ');
    console.log(
      [
        `differential: ${cases.length} cases`,
        `  skipped (shellgate's parser reports issues): ${skipped}`,
        `  bash-parser failures: ${failures}`,
        `  agreements: ${agreements}`,
        `  disagreements fixed in the adapter (agree only thanks to its repairs): ${repaired} (${repairList || 'none'})`,
        `  disagreements listed in known.json: ${listedDisagreements}; unlisted: ${unlisted.length}; listed with a changed difference: ${changed.length}`,
        `  stale known.json entries: ${stale.length}`,
      ].join('\n'),
    );

    expect(unlisted.slice(0, 30), `${unlisted.length} unlisted disagreement(s)`).toEqual([]);
    expect(changed.slice(0, 30), `${changed.length} listed case(s) whose difference changed`).toEqual([]);
    expect(stale.slice(0, 30), `${stale.length} listed case(s) that no longer disagree`).toEqual([]);
  });
});
