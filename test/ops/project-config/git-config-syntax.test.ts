/**
 * The git configuration parser against real git: for each text, `git config --file F --list
 * --null` (no includes) is the judge of which keys and values exist, and of which texts git
 * refuses. Skipped where git is not installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGitConfig } from '../../../src/ops/project-config/git/config-syntax.js';

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sg-gitsyntax-'));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: dir };

/** name=value pairs as git lists them (a key without `=` has no `\n` part), or null when git refuses the file. */
function gitReads(text: string): string[] | null {
  const f = join(dir, 'config');
  writeFileSync(f, text);
  try {
    const out = execFileSync('git', ['config', '--file', f, '--list', '--null'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out
      .split('\0')
      .filter((x) => x !== '')
      .map((x) => (x.includes('\n') ? x.replace('\n', '=') : `${x}`));
  } catch {
    return null;
  }
}

function weRead(text: string): string[] | null {
  const p = parseGitConfig(text);
  if (p.errorLine !== null) return null;
  return p.entries.map((e) => (e.value === null ? e.name : `${e.name}=${e.value}`));
}

const CASES = [
  '[core]\n\tfsmonitor = ./x.sh\n',
  '[core] fsmonitor = ./hook\n',
  '[core]fsmonitor=x',
  '[a][b] k = v\n',
  '[Core]\n\tFsMonitor = X\n',
  '[diff "My.Driver"]\n\ttextconv = "sh -c \\"id\\""\n',
  '[section.SubSection]\n\tkey = v\n',
  '[s "sub\\"q\\\\x"]\n\tk = v\n',
  '[s   "sub"]\nk=v',
  '[core]\n\tpager = less \\\n  -R\n',
  '[core]\n\tpager = "a # not a comment" # a comment\n',
  '[core]\n\tpager = a ; b\n',
  '[core]\n\tpager =    spaced   value   \n',
  '[core]\n\tpager = "  kept  "\n',
  '[core]\r\n\tpager = crlf\r\n',
  '\ufeff[core]\n\tpager = bom\n',
  '[core]\n\tbare\n',
  '[core]\n\tempty =\n',
  "[alias]\n\tx = !sh -c 'echo a' \\t tab\n",
  '[core]\n\tpager = a\\nb\n',
  'key = before-section\n[core]\n',
  '# comment\n; comment\n[core] ; comment\n\tpager = x\n',
  // texts git refuses
  '[core]\n\tpager = "unterminated\n',
  '[core\n\tpager = x\n',
  '[core]\n\tpager = bad \\q escape\n',
  '[core]\n\t1key = x\n',
  '[core]\n\tkey x\n',
  '[s "sub"x]\n',
  '[core]\n\tbool # comment\n',
  '[]\nk = v\n',
];

describe.skipIf(!gitAvailable())('git configuration syntax, judged by git', () => {
  for (const text of CASES) {
    it(JSON.stringify(text), () => {
      expect(weRead(text)).toEqual(gitReads(text));
    });
  }
});
