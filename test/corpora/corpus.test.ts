/**
 * Runs every case in corpus/*.jsonl: each line is a command with what a user relies on —
 * its level, and where given, its sub-commands (argv after unwrapping), its operations and the
 * findings it must carry. See corpus/README.md for the format.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { argvs, check, CONTEXT, ops, rules } from '../helpers/analyzer.js';

interface Case {
  command: string;
  level: 'allow' | 'ask' | 'deny';
  commands?: string[];
  ops?: string[];
  rules?: string[];
  note?: string;
  /** The shell that runs it (default bash). */
  shell?: 'bash' | 'zsh' | 'sh' | 'auto';
}

const DIR = join(import.meta.dirname, '..', '..', 'corpus');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

function load(file: string): Case[] {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.trim() !== '')
    .map(([l, n]) => {
      const c = JSON.parse(l) as Case;
      if (typeof c.command !== 'string' || !['allow', 'ask', 'deny'].includes(c.level)) {
        throw new Error(`${file}:${n}: a case needs "command" and "level"`);
      }
      return c;
    });
}

const all = files.flatMap((f) => load(f).map((c) => ({ file: f, ...c })));

describe('project corpus', () => {
  it('holds at least 300 cases', () => {
    expect(all.length).toBeGreaterThanOrEqual(300);
  });

  for (const c of all) {
    it(`${c.file}: ${c.shell ? `[${c.shell}] ` : ''}${c.command.slice(0, 80)}`, async () => {
      const v = await check(c.command, c.shell ? { ...CONTEXT, shell: c.shell } : CONTEXT);
      const why = `findings: ${JSON.stringify(v.findings.map((f) => `${f.level} ${f.rule}: ${f.message}`))}`;
      expect(v.level, why).toBe(c.level);
      if (c.commands) expect(argvs(v)).toEqual(c.commands);
      if (c.ops) expect(new Set(ops(v))).toEqual(new Set(c.ops));
      if (c.rules) expect(rules(v)).toEqual(expect.arrayContaining(c.rules));
    });
  }
});
