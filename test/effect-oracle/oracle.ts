/**
 * The effect oracle's run: analyse each command in the sandbox's own context (the hostile
 * repository on disk at the same paths), run the ones shellgate allows, and turn what they did
 * into violations. Shared by the seeded sample in `npm test` and the full run.
 */
import { accessSync, constants } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createAnalyzer, type AnalysisContext } from '../../src/index.js';
import type { Item } from './corpora.js';
import { effectsOf, type Effect } from './effects.js';
import { EffectSandbox, PATH } from './sandbox.js';

export interface Violation {
  source: string;
  command: string;
  /** `kind target`, targets with the workspace as `.`, the home as `~`, the oracle's dir as `$D`. */
  effects: string[];
  status: number | null;
}

export interface SourceStats {
  commands: number;
  allowed: number;
  run: number;
  violations: number;
  timeouts: number;
  /** Programs the allowed commands name that are not installed here (run anyway: nothing happens). */
  notInstalled: Map<string, number>;
}

export interface OracleReport {
  stats: Map<string, SourceStats>;
  violations: Violation[];
  /** Commands killed at the time limit (their effects may be incomplete). */
  timedOut: string[];
  seconds: { analyse: number; run: number };
}

export function contextFor(sb: EffectSandbox): AnalysisContext {
  return {
    cwd: sb.ws,
    workspaceRoots: [sb.ws],
    home: sb.home,
    env: { HOME: sb.home, PATH, USER: 'user', LOGNAME: 'user', LANG: 'C.UTF-8', TERM: 'dumb' },
  };
}

const BUILTINS = new Set(execFileSync('bash', ['-c', 'compgen -b; compgen -k'], { encoding: 'utf8' }).split('\n').filter(Boolean));
const installed = new Map<string, boolean>();
function isInstalled(program: string): boolean {
  let v = installed.get(program);
  if (v === undefined) {
    v = BUILTINS.has(program) || (program.includes('/') ? canExec(program) : PATH.split(':').some((d) => canExec(join(d, program))));
    installed.set(program, v);
  }
  return v;
}
function canExec(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function normalise(e: Effect, sb: EffectSandbox): string {
  const t = e.target.split(sb.ws).join('.').split(sb.home).join('~').split(sb.dir).join('$D');
  return `${e.kind} ${t}`;
}

export async function runOracle(
  list: Item[],
  options: {
    workers?: number;
    timeoutSeconds?: number;
    chunk?: number;
    interleave?: boolean;
    progress?: (done: number, total: number, sofar: OracleReport) => void;
  } = {},
): Promise<OracleReport> {
  const sb = EffectSandbox.create({ workers: options.workers ?? 2, timeoutSeconds: options.timeoutSeconds ?? 5 });
  try {
    const analyzer = await createAnalyzer();
    const ctx = contextFor(sb);
    const stats = new Map<string, SourceStats>();
    const toRun: Item[] = [];
    const t0 = Date.now();
    for (const it of list) {
      const s = stats.get(it.source) ?? { commands: 0, allowed: 0, run: 0, violations: 0, timeouts: 0, notInstalled: new Map() };
      stats.set(it.source, s);
      s.commands++;
      const v = analyzer.analyze(it.command, ctx);
      if (v.level !== 'allow') continue;
      s.allowed++;
      toRun.push(it);
      for (const c of v.commands) {
        const p = c.program ?? c.programRaw;
        if (p && !isInstalled(p)) s.notInstalled.set(p, (s.notInstalled.get(p) ?? 0) + 1);
      }
    }
    if (options.interleave) interleave(toRun);
    const t1 = Date.now();
    const violations: Violation[] = [];
    const timedOut: string[] = [];
    const chunk = options.chunk ?? 400;
    for (let k = 0; k < toRun.length; k += chunk) {
      const part = toRun.slice(k, k + chunk);
      const results = await sb.run(part.map((x) => x.command));
      results.forEach((r, j) => {
        const it = part[j];
        const s = stats.get(it.source)!;
        s.run++;
        if (r.timedOut) {
          s.timeouts++;
          timedOut.push(it.command);
        }
        const effects = effectsOf(r.processes, { ws: sb.ws, home: sb.home, command: it.command });
        if (effects.length) {
          s.violations++;
          violations.push({ source: it.source, command: it.command, effects: [...new Set(effects.map((e) => normalise(e, sb)))].sort(), status: r.status });
        }
      });
      const sofar = { stats, violations, timedOut, seconds: { analyse: (t1 - t0) / 1000, run: (Date.now() - t1) / 1000 } };
      options.progress?.(Math.min(k + chunk, toRun.length), toRun.length, sofar);
    }
    return { stats, violations, timedOut, seconds: { analyse: (t1 - t0) / 1000, run: (Date.now() - t1) / 1000 } };
  } finally {
    sb.dispose();
  }
}

/** Round-robin over the corpora, in place: a run cut short has covered each in proportion. */
function interleave(list: Item[]): void {
  const by = new Map<string, Item[]>();
  for (const it of list) by.set(it.source, [...(by.get(it.source) ?? []), it]);
  const total = list.length;
  const queues = [...by.values()].map((xs) => ({ xs, next: 0 }));
  list.length = 0;
  while (list.length < total) {
    for (const q of queues) {
      // each corpus at its own pace: a share of every step in proportion to its size
      const due = Math.ceil(((list.length + 1) * q.xs.length) / total);
      while (q.next < Math.min(due, q.xs.length)) list.push(q.xs[q.next++]);
    }
  }
}

/** The counts per corpus, as a table for the console. */
export function formatReport(r: OracleReport): string {
  const lines = ['corpus          commands  allowed      run  violations  timeouts  not installed (allowed commands naming it)'];
  for (const [source, s] of r.stats) {
    const missing = [...s.notInstalled]
      .sort((a, b) => b[1] - a[1])
      .map(([p, n]) => `${p}×${n}`)
      .join(' ');
    lines.push(
      `${source.padEnd(15)} ${String(s.commands).padStart(8)} ${String(s.allowed).padStart(8)} ${String(s.run).padStart(8)} ${String(s.violations).padStart(11)} ${String(s.timeouts).padStart(9)}  ${missing || '-'}`,
    );
  }
  lines.push(`analysed in ${r.seconds.analyse.toFixed(1)} s, ran in ${r.seconds.run.toFixed(1)} s`);
  return lines.join('\n');
}
