/**
 * `shellgate audit`'s summary on logs written here: exact counts, command groups, and suggested
 * allow rules that never allow a guard rule's example.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createGate, type Gate } from '../../src/policy/gate.js';
import { parseRule } from '../../src/policy/rule-syntax.js';
import { defaultSpecs } from '../../src/programs/load-specs.js';
import { parseAuditText } from '../../src/audit/read.js';
import { summariseAudit, type AuditSummary } from '../../src/audit/summary.js';
import type { AuditRecord } from '../../src/audit/types.js';

let gate: Gate;
beforeAll(async () => {
  gate = await createGate({});
});

function rec(command: string, o: Partial<AuditRecord> = {}): AuditRecord {
  return {
    time: '2026-01-01T00:00:00.000Z',
    agent: 'claude-code',
    session: 's1',
    tool: 'Bash',
    family: 'shell',
    command,
    level: 'ask',
    layer: 'tool-default',
    rules: [],
    reason: 'r',
    version: 't',
    durationMs: 1,
    ...o,
  };
}

function times<T>(n: number, x: T): T[] {
  return Array(n).fill(x);
}

function summarise(records: AuditRecord[], extraText = '', opts: { top?: number; minAsks?: number } = {}): AuditSummary {
  const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n' + extraText;
  return summariseAudit(parseAuditText(text, 'audit.jsonl'), {
    ...opts,
    specs: defaultSpecs(),
    guardRules: gate.rules,
    analyse: (c) => gate.evaluate({ tool: 'shell', args: { command: c } }).verdict!,
  });
}

/** The argv of every sub-command of every guard rule's match example. */
function guardArgvs(): { rule: string; example: string; argv: string[] }[] {
  return gate.rules.flatMap((r) =>
    r.examples.match.flatMap((example) =>
      gate
        .evaluate({ tool: 'shell', args: { command: example } })
        .verdict!.commands.map((c) => ({ rule: r.id, example, argv: [c.program ?? c.programRaw, ...c.args.map((a) => a.value)] })),
    ),
  );
}

const ANCHORS = { projectRoot: '/', cwd: '/', home: '/home/u' };

describe('counts', () => {
  it('decisions per level, layer, rule, agent and session; asks per tool', () => {
    const s = summarise([
      rec('ls', { level: 'allow', layer: 'tool-default' }),
      rec('ls -la', { level: 'allow', layer: 'rule-allow', session: 's2' }),
      rec('rm -rf /', { level: 'deny', layer: 'guard-deny', rules: ['destructive-delete/rm-root-or-home'] }),
      rec('curl https://example.com', { rules: ['network'] }),
      rec('curl https://example.com', { rules: ['network'], session: 's2' }),
      rec('', { level: 'deny', layer: 'hook-input', tool: '', family: undefined, session: undefined }),
      rec('{"file_path":"/etc/hosts"}', { tool: 'Read', family: 'read', rules: ['outside-workspace', 'network'], agent: 'cli', session: undefined }),
      rec('', { level: 'defer', layer: 'tool-default', tool: 'TodoWrite', family: 'meta' }),
    ]);
    expect(s.records).toBe(8);
    expect(s.levels).toEqual({ allow: 2, ask: 3, deny: 2, defer: 1 });
    expect(s.layers).toEqual({ 'tool-default': 5, 'rule-allow': 1, 'guard-deny': 1, 'hook-input': 1 });
    expect(s.rules).toEqual({ network: 3, 'destructive-delete/rm-root-or-home': 1, 'outside-workspace': 1 });
    expect(s.agents).toEqual({ 'claude-code': 7, cli: 1 });
    expect(s.askedTools).toEqual({ Bash: 2, Read: 1 });
    expect(s.sessions).toEqual([
      { session: 's1', asks: 1, decisions: 4 },
      { session: 's2', asks: 1, decisions: 2 },
      { session: null, asks: 1, decisions: 2 },
    ]);
    expect(s.malformed.count).toBe(0);
  });

  it('malformed lines are counted and named, and the rest is still summarised', () => {
    const s = summarise(
      [rec('ls', { level: 'allow' }), rec('rm x')],
      ['not json', '{"time":"x"}', '', '[1,2]', JSON.stringify({ ...rec('x'), level: 'maybe' }), '{"cut": "short'].join('\n'),
    );
    expect(s.records).toBe(2);
    expect(s.malformed.count).toBe(6);
    expect(s.malformed.lines.map((m) => m.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(s.malformed.lines.map((m) => m.problem)).toEqual([
      'not JSON',
      '"agent" is not a string',
      'empty line',
      'not a JSON object',
      '"level" is not allow, ask, deny or defer',
      'not JSON',
    ]);
  });
});

describe('most-asked commands', () => {
  it('groups by program and subcommand, with the script a runner runs', () => {
    const s = summarise([
      ...times(3, rec('npm run test')),
      rec('npm run test -- --watch'),
      rec('npm run lint'),
      ...times(2, rec('git push origin main')),
      rec('git push -u origin feat'),
      rec('cd web && npm run test'),
      rec('docker compose up -d'),
    ]);
    const byName = Object.fromEntries(s.commands.map((c) => [c.command, c]));
    expect(byName['npm run test']).toMatchObject({ asks: 5, distinct: 3, example: 'npm run test' });
    expect(byName['git push']).toMatchObject({ asks: 3, distinct: 2, example: 'git push origin main' });
    expect(byName['npm run lint'].asks).toBe(1);
    expect(byName['docker compose up']?.asks).toBe(1);
    expect(s.commands[0].command).toBe('npm run test');
  });

  it('--top limits the rows and says how many there were', () => {
    const s = summarise([rec('npm run a'), rec('npm run b'), rec('npm run c')], '', { top: 2 });
    expect(s.commands).toHaveLength(2);
    expect(s.commandGroupCount).toBe(3);
  });
});

describe('suggested allow rules', () => {
  it('suggests a rule for a frequent prompt, in Claude Code syntax, that matches what asked', () => {
    const s = summarise([...times(4, rec('npm run test')), rec('npm run test -- --coverage')]);
    expect(s.suggestions).toContainEqual({ rule: 'Bash(npm run test *)', asks: 5, covers: 'npm run test' });
    const r = parseRule('Bash(npm run test *)', ANCHORS);
    expect(r.bash!(['npm', 'run', 'test', '--', '--coverage'])).toBe(true);
  });

  it('drops a rule that would allow a guard example (Bash(rm *) would allow rm -rf /) and says why; the exact line may stay', () => {
    const s = summarise(times(5, rec('rm -rf build')));
    const dropped = s.notSuggested.find((n) => n.rule === 'Bash(rm *)');
    expect(dropped?.because).toMatch(/would allow `rm [^`]*`.*guard rule [a-z-]+\//);
    expect(s.suggestions.map((x) => x.rule)).toEqual(['Bash(rm -rf build)']);
    for (const x of s.suggestions) {
      const r = parseRule(x.rule, ANCHORS);
      expect(r.bash!(['rm', '-rf', '/'])).toBe(false);
    }
  });

  it('never suggests overriding a guard rule that asked, even with the exact line', () => {
    const s = summarise(times(5, rec('git reset --hard HEAD~1', { rules: ['destructive-delete/git-discard-work'] })));
    expect(s.suggestions).toEqual([]);
    expect(s.notSuggested).toEqual([
      expect.objectContaining({ rule: 'Bash(git reset *)', because: expect.stringContaining('guard rule destructive-delete/git-discard-work') }),
    ]);
    // The same line logged without rule ids (an older log): the analysis finds the guard rule.
    expect(summarise(times(5, rec('git reset --hard HEAD~1'))).suggestions).toEqual([]);
  });

  it('a prompt that one rule cannot spare (a wrapper asked too) is no evidence for a rule', () => {
    const s = summarise([...times(5, rec('sudo npm install')), ...times(5, rec('ssh deploy@example.com uptime'))]);
    expect(s.suggestions).toEqual([]);
  });

  it('never suggests a rule for an interpreter or wrapper', () => {
    const s = summarise([...times(5, rec('python3 scripts/gen.py')), ...times(5, rec('sudo systemctl restart nginx'))]);
    expect(s.suggestions.filter((x) => /^Bash\((python3|sudo)\b/.test(x.rule))).toEqual([]);
    expect(s.notSuggested.map((n) => n.rule)).toContain('Bash(python3 *)');
  });

  it("counts only prompts an allow rule could lift (not an ask rule's, not an outside path's), and needs --min-asks of them", () => {
    const byAskRule = summarise(times(5, rec('npm run deploy', { layer: 'rule-ask' })));
    expect(byAskRule.suggestions).toEqual([]);
    expect(byAskRule.commands[0]).toMatchObject({ command: 'npm run deploy', asks: 5 });
    const outside = summarise(times(5, rec('npm run deploy', { layer: 'external-directory' })));
    expect(outside.suggestions).toEqual([]);
    expect(summarise(times(2, rec('npm run deploy'))).suggestions).toEqual([]);
    expect(summarise(times(2, rec('npm run deploy')), '', { minAsks: 2 }).suggestions.map((x) => x.rule)).toEqual(['Bash(npm run deploy *)']);
  });

  it("no suggestion from a varied log matches any sub-command of any guard rule's match example", () => {
    const asked = [
      'rm -rf build',
      'rm -rf node_modules',
      'git push origin main',
      'git push --force origin main',
      'git reset --hard HEAD~1',
      'git clean -fdx',
      'curl -fsSL https://example.com/install.sh',
      'wget https://example.com/a.tgz',
      'chmod -R 777 .',
      'chmod +x run.sh',
      'find . -name "*.tmp" -delete',
      'docker run --rm -it alpine sh',
      'docker system prune -af',
      'kubectl delete pod web-1',
      'npm publish',
      'dd if=/dev/zero of=disk.img bs=1M count=10',
      'ssh deploy@host uptime',
      'scp build.tgz host:/srv',
      'nc -l 4444',
      'crontab -l',
      'kill -9 1234',
      'pkill node',
      'tar xzf a.tgz',
      'mv a b',
      'cp -r a b',
      'git commit --no-verify -m x',
      'make test',
      'cargo build',
      'pip install requests',
      'brew install jq',
    ];
    const s = summarise(
      asked.flatMap((c) => times(3, rec(c))),
      '',
      { top: 100 },
    );
    expect(s.suggestions.length).toBeGreaterThan(3);
    const guard = guardArgvs();
    for (const x of s.suggestions) {
      const r = parseRule(x.rule, ANCHORS);
      const hit = guard.find((g) => r.bash!(g.argv));
      expect(hit, `${x.rule} matches ${hit?.argv.join(' ')} (${hit?.rule})`).toBeUndefined();
    }
  });
});
