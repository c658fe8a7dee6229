/**
 * Environment variables a line sets (ops/environment-variables.ts, verdict/assess.ts): a whitelist
 * of names inert for every program, each with the values that are data for it; any other name
 * asks (env-hijack) when it reaches a program, or may already be exported (issue 27).
 */
import { describe, expect, it } from 'vitest';
import { isInertVariable, mayBeEnvironmentName } from '../../src/ops/environment-variables.js';
import { harmlessPythonVariable } from '../../src/programs/inline-code/python-options.js';
import { check, rules } from '../helpers/analyzer.js';

describe('inert variables: a name on the whitelist and a value that is data', () => {
  it.each([
    ['LANG', 'C', true],
    ['LANG', 'en_US.UTF-8', true],
    ['LC_ALL', 'C.UTF-8', true],
    ['LANG', '/ws/project/evil', false], // glibc reads a locale name with a slash as a path
    ['LC_ALL', '../../x', false],
    ['TZ', 'Europe/Paris', true],
    ['TZ', ':UTC', true],
    ['TZ', '/home/user/.ssh/id_rsa', false],
    ['TZ', 'a/../../../etc/shadow', false],
    ['TERM', 'xterm-256color', true],
    ['TERM', '../x', false],
    ['COLUMNS', '80', true],
    ['COLUMNS', '$(id)', false],
    ['NO_COLOR', 'anything at all', true],
    ['PYTHONIOENCODING', 'utf-8', true],
    ['PYTHONIOENCODING', 'rot13', false],
    ['PAGER', 'cat', false], // names a program
    ['EDITOR', 'vi', false],
    ['NODE_ENV', 'production', false], // libraries load config/${NODE_ENV}.js
    ['FOO', '1', false],
  ])('%s=%s → %s', (name, value, inert) => {
    expect(isInertVariable(name, value)).toBe(inert);
  });

  it('takes an unknown value as inert only where every value is', () => {
    expect(isInertVariable('NO_COLOR', null)).toBe(true);
    expect(isInertVariable('LANG', null)).toBe(false);
    expect(isInertVariable('TZ', undefined)).toBe(false);
  });

  it('whitelists Python variables with their values', () => {
    expect(harmlessPythonVariable('PYTHONHASHSEED', 'random')).toBe(true);
    expect(harmlessPythonVariable('PYTHONHASHSEED', 'x')).toBe(false);
    expect(harmlessPythonVariable('PYTHONSTARTUP', 'a.py')).toBe(false);
    expect(harmlessPythonVariable('PYTHONBREAKPOINT', 'os.system')).toBe(false);
    expect(harmlessPythonVariable('PYTHONUNBUFFERED', null)).toBe(true);
  });
});

describe('names that may already be in the environment', () => {
  it.each([
    ['PATH', true],
    ['AWKPATH', true], // on no list of dangerous names the old code kept
    ['FOO', true],
    ['http_proxy', true],
    ['npm_config_script_shell', true],
    ['line', false], // POSIX: names with a lowercase letter are the applications'
    ['myVar', false],
    ['_', false], // bash sets it after every command
    ['REPLY', false],
  ])('%s → %s', (name, may) => {
    expect(mayBeEnvironmentName(name)).toBe(may);
  });
});

describe('verdicts', () => {
  it.each([
    'AWKPATH=/tmp/lib; awk -f lib.awk a.txt', // a bare assignment to a name that may be exported
    "BAT_PAGER='sh -c id'; bat README.md",
    'read -r MAGIC < notes.txt; file a.bin', // `file` reads its magic database from $MAGIC
    'LANG=/ws/project/evil sort a.txt',
    'TZ=/home/user/.ssh/id_rsa date',
    'export LC_ALL=../../x; ls',
    'FOO=1; ls',
    'export NODE_ENV=production; ls',
    'GZIP="$(which gzip)"', // gzip reads options from $GZIP
  ])('%s asks (env-hijack)', async (command) => {
    const v = await check(command);
    expect(v.level).toBe('ask');
    expect(rules(v)).toContain('env-hijack');
  });

  it.each([
    'LANG=C sort a.txt',
    'TZ=UTC date',
    'export LC_ALL=C.UTF-8; sort a.txt',
    'NO_COLOR=1 ls',
    'while read -r line; do echo "$line"; done < a.txt',
    'foo=1; ls',
    'read -r _ size _ < a.txt; echo "$size"',
    'IFS=, read -r a b < a.csv; echo "$a"',
  ])('%s stays allow', async (command) => {
    const v = await check(command);
    expect(v.level, JSON.stringify(v.findings)).toBe('allow');
  });
});
