/** User guard rules in the built-in format, and the errors for bad ones: file, rule and field named. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../src/index.js';
import { CONTEXT } from '../helpers/analyzer.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-rules-'));
function ruleFile(name: string, content: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}
const good = {
  id: 'team/no-terraform-destroy',
  level: 'deny',
  message: 'terraform destroy tears down infrastructure',
  rationale: 'Our agents never destroy infrastructure.',
  match: { program: 'terraform', subcommand: 'destroy' },
  examples: { match: ['terraform destroy -auto-approve'], noMatch: ['terraform plan'] },
};

describe('user guard rules', () => {
  it('take part in the decision like built-in ones', async () => {
    const a = await createAnalyzer({ ruleFiles: [ruleFile('team.json', { category: 'team', rules: [good] })] });
    const v = a.analyze('cd infra && terraform destroy -auto-approve', CONTEXT);
    expect(v.level).toBe('deny');
    expect(v.findings.find((f) => f.rule === 'team/no-terraform-destroy')?.category).toBe('team');
    expect(a.analyze('terraform plan', CONTEXT).findings.some((f) => f.rule === 'team/no-terraform-destroy')).toBe(false);
    expect(a.rules.find((r) => r.id === 'team/no-terraform-destroy')?.builtin).toBe(false);
    // A user rule may name its ATT&CK techniques; its findings carry them.
    const tagged = await createAnalyzer({ ruleFiles: [ruleFile('team-t.json', { category: 'team', rules: [{ ...good, attack: ['T1485'] }] })] });
    expect(tagged.analyze('terraform destroy', CONTEXT).findings.find((f) => f.rule === good.id)?.attack).toEqual(['T1485']);
  });

  it('fail with the file, the rule and the field named', async () => {
    const cases: [unknown, RegExp][] = [
      [{ category: 'team', rules: [{ ...good, level: 'block' }] }, /team-bad\.json: rule "team\/no-terraform-destroy": field "level"/],
      [{ category: 'team', rules: [{ ...good, match: { program: 'x', colour: 'red' } }] }, /field "match\.colour"/],
      [{ category: 'team', rules: [{ ...good, match: { program: '@nolist' } }] }, /field "match\.program" names the unknown list @nolist/],
      [{ category: 'team', rules: [{ ...good, match: { argRegex: '(' } }] }, /field "match\.argRegex" is not a valid regular expression/],
      [{ category: 'team', rules: [{ ...good, id: 'other/x' }] }, /field "id" must start with the file's category/],
      [{ category: 'team', rules: [{ ...good, attack: ['T1053.3'] }] }, /field "attack" must be a non-empty list of MITRE ATT&CK technique ids/],
      [{ category: 'team', rules: [{ ...good, attack: [] }] }, /field "attack"/],
      [{ category: 'team', rules: [{ ...good, match: {} }] }, /matches everything/],
      [{ category: 'team', rules: [{ ...good, match: { predicate: 'nope' } }] }, /field "match\.predicate" names no predicate/],
      ['{ nope', /team-bad\.json: not valid JSON/],
    ];
    for (const [content, message] of cases) {
      await expect(createAnalyzer({ ruleFiles: [ruleFile('team-bad.json', content)] })).rejects.toThrow(message);
    }
  });

  it('cannot reuse a built-in id', async () => {
    const clash = { ...good, id: 'destructive-delete/rm-root-or-home' };
    await expect(createAnalyzer({ ruleFiles: [ruleFile('dd.json', { category: 'destructive-delete', rules: [clash] })] })).rejects.toThrow(/already defined/);
  });
});

describe('shellgate rules', () => {
  const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
  const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'rules', ...args], { encoding: 'utf8' });

  it('lists every rule as JSON lines with id, category, level, message and source', () => {
    const lines = run('--json')
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) expect(Object.keys(l).slice(0, 5)).toEqual(['id', 'category', 'level', 'message', 'source']);
  });

  it('shows one rule with its rationale and examples, and 64 for an unknown id', () => {
    const r = run('destructive-delete/rm-root-or-home');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('matches:');
    expect(r.stdout).toContain('rm -rf /');
    const bad = run('no/such-rule');
    expect(bad.status).toBe(64);
    expect(bad.stderr).toContain('no rule');
  });

  it('includes user rules from --config', () => {
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ ruleFiles: [ruleFile('team2.json', { category: 'team', rules: [good] })] }));
    expect(run('--config', cfg, '--json').stdout).toContain('team/no-terraform-destroy');
  });
});
