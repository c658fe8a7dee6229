/**
 * `shellgate explain` as a user runs it (the built CLI, a separate process): the facts a reader
 * relies on are there — where each operation came from, every policy layer in order, the layer
 * and rule that decided, the reason the agent reads — and the exit status is check's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const WS = mkdtempSync(join(tmpdir(), 'sg-explain-'));
const LAYERS = ['tool-default', 'whole-tool-deny', 'guard-deny', 'rule-deny', 'rule-ask', 'rule-allow', 'external-directory', 'mode', 'channel'];

function explain(args: string[], input = '', cwd = WS) {
  const r = spawnSync(process.execPath, [BIN, 'explain', ...args], { input, encoding: 'utf8', cwd, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The line of the policy-layer section that starts with `N layer`. */
function layerLine(out: string, layer: string): string {
  const section = out.slice(out.indexOf('Policy layers'));
  return section.split('\n').find((l) => new RegExp(`^\\s+\\d+ ${layer}\\s`).test(l)) ?? '';
}

describe('shellgate explain (text)', () => {
  it('shows each operation with the spec file and operand that produced it, and every layer in order', () => {
    const r = explain(['--', 'rm -rf build']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('rules/programs/rm.json: rm operand 1 (delete)');
    expect(r.out).toMatch(/Delete \S+\/build \[workspace\]/);
    const section = r.out.slice(r.out.indexOf('Policy layers'));
    const positions = LAYERS.map((l) => section.search(new RegExp(`\\d ${l}\\s`)));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(layerLine(r.out, 'tool-default')).toContain('◀ decided');
    expect(r.out).toMatch(/Decision\s+ASK\s+decided by tool-default/);
  });

  it('names the handler for operations no spec operand made: a redirect, a wrapper, a program handler', () => {
    const r = explain(['--', 'sudo find . -name "*.o" -delete > log.txt']);
    expect(r.out).toContain('src/ops/redirects.ts: a redirect');
    expect(r.out).toContain('src/ops/operations.ts: the wrapper or shell sudo');
    expect(r.out).toContain('src/programs/hooks/find.ts: the handler for find');
    // The unwrapped command shows its wrapper chain and that it runs with privileges.
    expect(r.out).toMatch(/via\s+wrapper:sudo/);
    expect(r.out).toContain('with raised privileges');
    // A program whose hooks come from its tag (every interpreter's) is named by that hook's module.
    expect(explain(['--', `python3 -c 'print(open("a.txt").read())'`]).out).toContain('src/programs/hooks/interpreter.ts: the handler for python3');
  });

  it('shows sub-commands in a pipeline and a substitution, and an option that produced an operation', () => {
    const r = explain(['--', 'echo "$(sort -o sorted.txt data.txt)" | wc -l']);
    expect(r.out).toContain('pipeline stage 2 of 2');
    expect(r.out).toMatch(/inside \$\(…\) in #\d+ echo/);
    expect(r.out).toContain('rules/programs/sort.json: sort option -o (write)');
  });

  it('for a guard deny: the deciding layer and rule, later layers not reached, the safer way and the hook reason', () => {
    const r = explain(['--', 'chmod -R 777 /']);
    expect(r.code).toBe(2);
    expect(layerLine(r.out, 'guard-deny')).toContain('destructive-delete/recursive-chmod-chown-system');
    expect(layerLine(r.out, 'guard-deny')).toContain('◀ decided');
    for (const l of LAYERS.slice(LAYERS.indexOf('rule-deny'))) expect(layerLine(r.out, l), l).toContain('not reached');
    expect(r.out).toContain('[destructive-delete, guard rule, ATT&CK T1222.002]');
    expect(r.out).toMatch(/safer: .*chmod u\+x/);
    expect(r.out).toMatch(/the agent reads: shellgate denies this \(guard-deny\): .*Safer: /);
  });

  it('for a settings deny: rule-deny decides and names the rule and its file', () => {
    const cfg = join(WS, 'deny-push.json');
    writeFileSync(cfg, JSON.stringify({ permissions: { deny: ['Bash(git push *)'] } }));
    const r = explain(['--config', cfg, '--', 'git push origin main']);
    expect(r.code).toBe(2);
    expect(layerLine(r.out, 'rule-deny')).toContain('Bash(git push *) denies git push origin main');
    expect(layerLine(r.out, 'rule-deny')).toContain('◀ decided');
    expect(r.out).toContain('rules/programs/git.json: git push');
  });

  it('shows parse findings with a caret under their span', () => {
    const r = explain(['--', 'echo "unterminated']);
    expect(r.code).toBe(1);
    const parse = r.out.slice(r.out.indexOf('Parse'), r.out.indexOf('Sub-commands'));
    expect(parse).toContain('parse-error');
    expect(parse).toContain('^');
  });

  it('reads a whole multi-line command from stdin (a heredoc is not split into lines)', () => {
    const r = explain([], 'cat <<EOF\nrm -rf /\nEOF\n');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Sub-commands \(1\)/);
  });

  it('explains a non-shell tool call given with --tool and --arg', () => {
    const r = explain(['--preset', 'sensitive', '--tool', 'read_file', '--arg', `path=${join(WS, '.env')}`]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('sensitive-path');
    expect(layerLine(r.out, 'rule-deny')).toContain('preset sensitive');
  });

  it("with --agent, reads that agent's project settings as its hook does", () => {
    const project = mkdtempSync(join(tmpdir(), 'sg-explain-agent-'));
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { ask: ['Bash(ls *)'] } }));
    const r = explain(['--agent', 'claude-code', '--cwd', project, '--', 'ls -la'], '', project);
    expect(r.code).toBe(1);
    expect(layerLine(r.out, 'rule-ask')).toContain('Bash(ls *) asks for ls -la');
    expect(layerLine(r.out, 'rule-ask')).toContain('◀ decided');
  });

  it('exits 64 with a message for usage errors, never a stack trace', () => {
    for (const args of [
      ['--bogus', 'ls'],
      ['--cwd', join(WS, 'nope'), 'ls'],
      ['--mode', 'turbo', 'ls'],
      ['--agent', 'nobody', 'ls'],
      ['--arg', 'path=x', 'ls'],
    ]) {
      const r = explain(args);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.err).toMatch(/^shellgate: /);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});

describe('shellgate explain --json', () => {
  it('is one JSON object with the layers in order, operation origins and the decision', () => {
    const r = explain(['--json', '--', 'cat a.txt > b.txt']);
    expect(r.code).toBe(1);
    const e = JSON.parse(r.out);
    expect(e.layers.map((l: { layer: string }) => l.layer)).toEqual(LAYERS);
    expect(e.decision).toMatchObject({ level: 'ask', layer: 'tool-default' });
    expect(e.decision.steering).toMatch(/^shellgate asks/);
    const ops = e.commands[0].operations;
    expect(ops.find((o: { kind: string }) => o.kind === 'Read').origin).toEqual({ spec: 'rules/programs/cat.json', program: 'cat', operand: 1, role: 'read' });
    expect(ops.find((o: { kind: string }) => o.kind === 'Write').origin).toEqual({ handler: 'redirect' });
    expect(e.findings.find((f: { rule: string }) => f.rule === 'write')).toMatchObject({ source: 'core', level: 'ask' });
  });
});
