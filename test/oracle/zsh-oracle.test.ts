/**
 * Real zsh as the oracle for commands read as zsh (issue 28). Where zsh is the agent's shell, every
 * command runs as `zsh -c COMMAND`; shellgate, told `shell: 'zsh'`, reads it as zsh or asks where zsh
 * may read it otherwise than bash (`dialect-difference`). This suite checks that claim against the
 * real zsh: a stable sample of the commands of the project corpus and of the oracle's generator,
 * and every command of zsh-cases.ts, run under zsh in the sandbox (sandbox.ts, `shell: 'zsh'`);
 * every program zsh runs, or looks up and does not find, must be among shellgate's sub-commands,
 * or shellgate does not allow the command and says what it cannot know (judge.ts).
 *
 * The zsh cases also say what real zsh does with them, and the sandbox must observe exactly that,
 * so that a case that does nothing under the real zsh is a broken case, not a pass. That check, and
 * the sandbox itself, do not depend on shellgate; the oracle and precision checks need the context
 * field `shell` and are skipped (with one line saying so) while the analyser rejects it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type AnalysisContext, type Verdict } from '../../src/index.js';
import { drawn } from '../helpers/stable-draw.js';
import { generateCommands } from './generate.js';
import { probeSandbox, Sandbox, type RunResult } from './sandbox.js';
import { excusedVerdict, NOT_RUN, unavailable, unlisted } from './judge.js';
import { projectCases } from '../helpers/analyzer.js';
import { ZSH_CASE_ABSENT, ZSH_CASE_PROGRAMS, ZSH_CASES, ZSH_PRECISION } from './zsh-cases.js';

const HERE = import.meta.dirname;
const CONTEXT: AnalysisContext = { cwd: '/work', workspaceRoots: ['/work'], home: '/root', env: {}, shell: 'zsh' };
const HAS_ZSH = existsSync('/usr/bin/zsh') || existsSync('/bin/zsh');
/**
 * Share of the corpus and generator commands run (drawn by each command's text, stable-draw.ts):
 * under zsh a command takes about as long as under dash, and the whole set ran 3 to 4.5 min on two
 * cores. The zsh cases, and corpus lines that name zsh as their shell, always run;
 * SHELLGATE_ORACLE_FULL=1 runs everything.
 */
const SAMPLE_RATE = process.env.SHELLGATE_ORACLE_FULL === '1' ? 1 : 0.4;

function corpusCommands(): string[] {
  const out = new Set<string>();
  const always = new Set<string>(ZSH_CASES.map((c) => c.command));
  for (const c of projectCases()) (c.shell === 'zsh' ? always : out).add(c.command);
  for (const c of generateCommands()) out.add(c);
  const sample = [...out].filter((c) => drawn(c, SAMPLE_RATE, 'zsh-oracle'));
  return [...new Set([...sample, ...always])].filter((c) => !c.includes('\0'));
}

/** Distinct programs observed, named as in ZshCase.runs. */
function observed(r: RunResult): string[] {
  return [...new Set(r.records.map((x) => (x.kind === 'missing' ? `${x.program} (missing)` : x.program)))].sort();
}

const analyzer = await createAnalyzer();

const probe = HAS_ZSH ? await probeSandbox({ shell: 'zsh' }) : ({ ok: false, reason: 'no zsh on this machine' } as const);

describe('real zsh as the oracle for commands read as zsh', () => {
  if (!probe.ok) {
    unavailable(`ZSH ORACLE UNAVAILABLE: ${probe.reason}.`, 'has zsh and a working sandbox');
    return;
  }

  let sandbox: Sandbox;
  const commands: string[] = [];
  const verdicts: Verdict[] = [];
  let results: RunResult[] = [];
  let caseResults: RunResult[] = [];

  beforeAll(async () => {
    const programs = new Set<string>(JSON.parse(readFileSync(join(HERE, 'common-programs.json'), 'utf8')) as string[]);
    for (const p of [...ZSH_CASE_PROGRAMS, 'sg-ok', 'sg-bad']) programs.add(p);
    for (const c of ZSH_CASES) for (const p of c.runs) if (!p.endsWith(' (missing)')) programs.add(p);
    commands.push(...corpusCommands());
    for (const c of commands) {
      const v = analyzer.analyze(c, CONTEXT);
      verdicts.push(v);
      for (const x of v.commands) if (x.program) programs.add(x.program);
    }
    // a name a case expects zsh not to find must not become a stub because shellgate listed it
    for (const c of ZSH_CASES) for (const p of c.runs) if (p.endsWith(' (missing)')) programs.delete(p.slice(0, -' (missing)'.length));
    for (const p of ZSH_CASE_ABSENT) programs.delete(p);
    for (const c of ZSH_CASES) for (const p of c.runs) if (!p.endsWith(' (missing)')) programs.add(p);
    sandbox = Sandbox.create({ programs, timeoutSeconds: 2, workers: 2, shell: 'zsh' });
    // every zsh case runs once, whatever its verdict (its observation is checked, and judged
    // below); of the rest, only what shellgate does not excuse
    const cases = new Set(ZSH_CASES.map((c) => c.command));
    const toRun = commands.map((_, i) => i).filter((i) => !cases.has(commands[i]) && !excusedVerdict(verdicts[i]));
    const ran = await sandbox.run([...ZSH_CASES.map((c) => c.command), ...toRun.map((i) => commands[i])]);
    caseResults = ran.slice(0, ZSH_CASES.length);
    results = commands.map(() => NOT_RUN);
    toRun.forEach((i, k) => (results[i] = ran[ZSH_CASES.length + k]));
  });

  afterAll(() => {
    const dir = sandbox?.dir;
    sandbox?.dispose();
    if (dir) expect(existsSync(dir), 'the sandbox removes its temp root').toBe(false);
  });

  it('runs commands under the real zsh, and sees the names zsh does not find, with and without the handler', async () => {
    const [a, b, c] = await sandbox.run([
      'a=(sg-ok no); [[ -n $ZSH_VERSION ]] && $a[1]; no-such-program-here',
      'unfunction command_not_found_handler; no-such-program-here',
      "zsh -f -c 'no-such-program-here'",
    ]);
    expect(observed(a)).toEqual(['no-such-program-here (missing)', 'sg-ok']);
    expect(observed(b)).toEqual(['no-such-program-here (missing)']);
    expect(observed(c)).toEqual(['no-such-program-here (missing)']);
  });

  it('isolates zsh too, whose modules bring rm, chmod and sockets as builtins', async () => {
    const checks: Record<string, string> = {
      'zsh reads its commands': `[[ -n $ZSH_VERSION ]] && [[ $0 == zsh ]]`,
      'modules load': `zmodload zsh/files && (( $+builtins[zf_rm] ))`,
      // rm asks before removing a file it cannot write (stdin is /dev/null: no) and -f hides the error: look at the files
      'zsh/files cannot change the root': `zmodload zsh/files; rm -f /usr/bin/sg-ok; mv -f /usr/sbin/sg-ok /usr/sbin/sg-moved 2>/dev/null; mkdir /sg-new 2>/dev/null; [[ -e /usr/bin/sg-ok && -e /usr/sbin/sg-ok && ! -e /usr/sbin/sg-moved && ! -e /sg-new ]]`,
      'zsh/files cannot change a host device': `zmodload zsh/files; ! chmod 777 /dev/null 2>/dev/null && ! chown 0 /dev/null 2>/dev/null`,
      'no network through zsh/net/tcp': `zmodload zsh/net/tcp; ! ztcp 1.1.1.1 80 2>/dev/null && ! ztcp 127.0.0.1 22 2>/dev/null`,
      'no startup file but the handler’s': `[[ $ZDOTDIR == /.sg-zsh && ! -e /etc/zsh && ! -e /etc/zshenv && $(print -r -- /.sg-zsh/*(DN)) == /.sg-zsh/.zshenv ]]`,
      'no option changed by it': `[[ -o rcs && -o multios && ! -o shwordsplit && ! -o globsubst && ! -o interactive ]]`,
      'kernel settings out of reach': `! { print 3 > /proc/sys/vm/drop_caches } 2>/dev/null`,
      'not host root': `read -r _ outer _ < /proc/self/uid_map && [[ $outer != 0 ]]`,
      'runs in /work with HOME=/root and the seeded files': `[[ $PWD == /work && $HOME == /root && -f README.md && -f notes.txt && -f main.ts ]]`,
    };
    const names = Object.keys(checks);
    const rs = await sandbox.run(names.map((n) => `if ${checks[n]}; then sg-ok; else sg-bad; fi`));
    const failed = names
      .filter((n, i) => rs[i].records.map((r) => r.program).join(' ') !== 'sg-ok')
      .map((n) => `${n}: ${JSON.stringify(rs[names.indexOf(n)].records)}`);
    expect(failed).toEqual([]);
    const fresh = await sandbox.run([
      'print x > /work/left; print x > /tmp/left; print x > ~/left; sg-ok',
      'sg-ok',
      'if [[ ! -e /work/left && ! -e /tmp/left && ! -e ~/left ]]; then sg-ok; else sg-bad; fi',
    ]);
    expect(fresh.map((r) => r.records.map((x) => x.program).join(' '))).toEqual(['sg-ok', 'sg-ok', 'sg-ok']);
  });

  it('each zsh case does under the real zsh what zsh-cases.ts says it does', () => {
    const broken: string[] = [];
    ZSH_CASES.forEach((c, k) => {
      const r = caseResults[k];
      const seen = observed(r);
      const want = [...new Set(c.runs)].sort();
      if (JSON.stringify(seen) !== JSON.stringify(want) || r.timedOut || r.logProblem)
        broken.push(
          `${JSON.stringify(c.command)}: zsh ran [${seen.join(', ')}], the case says [${want.join(', ')}]${r.timedOut ? ' (timed out)' : ''}${r.logProblem ? ` (${r.logProblem})` : ''}`,
        );
    });
    for (const b of broken) console.log(`BROKEN ZSH CASE ${b}`);
    expect(broken).toEqual([]);
  });

  it('every program zsh runs is among shellgate’s sub-commands, or shellgate asks because it cannot know', () => {
    const violations: { command: string; ran: string[]; level: string; rules: string[] }[] = [];
    let run = 0;
    let seen = 0;
    for (let i = 0; i < commands.length; i++) {
      const r = results[i];
      if (r === NOT_RUN) continue;
      run++;
      seen += r.records.length;
      const ran = unlisted(verdicts[i], r);
      if (ran.length > 0)
        violations.push({ command: commands[i], ran, level: verdicts[i].level, rules: [...new Set(verdicts[i].findings.map((f) => f.rule))] });
    }
    // the zsh cases (run above whatever their verdict) are judged as the rest: excused, or every program listed
    ZSH_CASES.forEach((c, k) => {
      const v = verdicts[commands.indexOf(c.command)];
      if (excusedVerdict(v)) return;
      const ran = unlisted(v, caseResults[k]);
      run++;
      seen += caseResults[k].records.length;
      if (ran.length > 0) violations.push({ command: c.command, ran, level: v.level, rules: [...new Set(v.findings.map((f) => f.rule))] });
    });
    const slow = commands.filter((_, i) => results[i].timedOut);
    console.log(
      `\nreal-zsh oracle: ${commands.length} commands read as zsh, ${run} run (the rest ask and say what shellgate cannot know), ${seen} programs observed, ${slow.length} stopped at the time limit, ${violations.length} violation(s)`,
    );
    for (const c of slow) console.log(`TIMED OUT ${JSON.stringify(c)}`);
    for (const x of violations)
      console.log(`VIOLATION ${JSON.stringify(x.command)}\n  zsh ran: ${x.ran.join(', ')}\n  shellgate: ${x.level} rules ${x.rules.join(',')}`);
    expect(run).toBeGreaterThan(300);
    expect(violations).toEqual([]);
  });
});

/**
 * Not in the sandbox's /work: on a developer's machine /work may be a real folder whose symlinks
 * lead out (a worktree's node_modules), and `ls **\/*.ts` rightly asks there. Read in a fresh
 * workspace on disk, and in the corpus's workspace that is not on disk.
 */
describe('read-only work in the workspace under zsh', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shellgate-zsh-precision-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'main.ts'), 'export const x = 1; // TODO\n');
    writeFileSync(join(dir, 'README.md'), '# x\n');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('commands that only read in the workspace stay allowed when read as zsh', () => {
    const contexts = [
      { cwd: dir, workspaceRoots: [dir], home: '/home/user', env: {}, shell: 'zsh' as const },
      { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {}, shell: 'zsh' as const },
    ];
    const asked = contexts.flatMap((ctx) =>
      ZSH_PRECISION.map((c) => ({ c, v: analyzer.analyze(c, ctx) }))
        .filter((x) => x.v.level !== 'allow')
        .map((x) => `${JSON.stringify(x.c)} in ${ctx.cwd}: ${x.v.level} (${[...new Set(x.v.findings.map((f) => f.rule))].join(',')})`),
    );
    for (const a of asked) console.log(`NOT ALLOWED UNDER ZSH ${a}`);
    expect(asked).toEqual([]);
  });
});
