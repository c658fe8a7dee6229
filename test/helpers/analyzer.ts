/** One analyser per test file, with a fixed context so expectations do not depend on the machine. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer, type Analyzer, type AnalysisContext, type Verdict } from '../../src/index.js';

export const WS = '/ws/project';
export const HOME = '/home/user';
export const CONTEXT: AnalysisContext = { cwd: WS, workspaceRoots: [WS], home: HOME, env: { USER: 'user' } };

let shared: Promise<Analyzer> | null = null;

export function analyzer(): Promise<Analyzer> {
  shared ??= createAnalyzer();
  return shared;
}

export async function check(command: string, context: AnalysisContext = CONTEXT): Promise<Verdict> {
  return (await analyzer()).analyze(command, context);
}

/** `program arg…` for every sub-command, in walk order. */
export function argvs(v: Verdict): string[] {
  return v.commands.map((c) => [c.program ?? c.programRaw, ...c.args.map((a) => a.value)].join(' ').trim());
}

/** Display form of a path: `./x` inside the workspace, `~/x` under home, else absolute. */
export function shortPath(p: string): string {
  if (p === WS) return '.';
  if (p.startsWith(WS + '/')) return './' + p.slice(WS.length + 1);
  if (p === HOME) return '~';
  if (p.startsWith(HOME + '/')) return '~/' + p.slice(HOME.length + 1);
  return p;
}

/** `Kind target` for every operation, deduplicated. */
export function ops(v: Verdict): string[] {
  const out = new Set<string>();
  for (const o of v.operations) {
    const what = o.path ? shortPath(o.path) : (o.host ?? o.program ?? o.target ?? '');
    out.add(`${o.kind} ${what}`.trim());
  }
  return [...out];
}

export function rules(v: Verdict): string[] {
  return [...new Set(v.findings.map((f) => f.rule))];
}

/** Every case in the project's corpus/*.jsonl, files in name order (see corpus/README.md). */
export function projectCases(): { command: string; shell?: string }[] {
  const dir = join(import.meta.dirname, '..', '..', 'corpus');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    )
    .map((l) => JSON.parse(l) as { command: string; shell?: string });
}

/** The command of every case in the project's corpus/*.jsonl. */
export function projectCommands(): string[] {
  return projectCases().map((c) => c.command);
}
