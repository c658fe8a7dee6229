/**
 * awk programs are scanned as raw text (issue 27, class 4): a token that may run, write, read or
 * load is found anywhere — inside a regex, a string or a comment too — so no hand reading of where
 * a string ends decides what is "just text". A `>` is a comparison only where that can be proved.
 */
import { describe, expect, it } from 'vitest';
import { awkProgramEffects } from '../../../src/programs/hooks/awk.js';
import { check, ops, rules } from '../../helpers/analyzer.js';

const NONE = { exec: false, loads: false, writes: false, reads: false, argv: false, env: false, unknown: false };

describe('awk program effects, over the raw text', () => {
  it('finds pipes and system() that a regex or a string would hide', () => {
    expect(awkProgramEffects('/inet addr/ { print $2 }').exec).toBe(false);
    expect(awkProgramEffects('{ print /;/ ? 1 : 0 | "sh" }').exec).toBe(true);
    expect(awkProgramEffects('/}/ { print $0 | "sh" }').exec).toBe(true);
    expect(awkProgramEffects('{ x = "\\";"; print x | "sh" }').exec).toBe(true);
    expect(awkProgramEffects('{ print $1 |& "cat" }').exec).toBe(true);
    expect(awkProgramEffects('{ print ||| "sh" }').exec).toBe(true);
    expect(awkProgramEffects('BEGIN { "/inet/tcp/0/example.com/80" |& getline }').exec).toBe(true);
    expect(awkProgramEffects('# system\n{ print }').exec).toBe(true);
  });

  it('reads `||` as logical or: never a pipe', () => {
    expect(awkProgramEffects('$1 == "a" || $2 == "b"')).toEqual(NONE);
  });

  it('finds code loaded or called by name: @load, @include, @f(), extension()', () => {
    expect(awkProgramEffects('@load "ordchr"\n{ print }').loads).toBe(true);
    expect(awkProgramEffects('@include "lib.awk"').loads).toBe(true);
    expect(awkProgramEffects('BEGIN { f = "sys" "tem"; @f("id") }').loads).toBe(true);
    expect(awkProgramEffects('BEGIN { extension("./x.so", "init") }').loads).toBe(true);
  });

  it('takes > as a write unless it is >=, in a pattern, or inside a plain group', () => {
    expect(awkProgramEffects('NR>1 {print $2}').writes).toBe(false);
    expect(awkProgramEffects('length($0) > 80').writes).toBe(false);
    expect(awkProgramEffects('{ if ($3 > 100) print $1 }').writes).toBe(false);
    expect(awkProgramEffects('{ if (NR > 1 && $2 >= 3) print }').writes).toBe(false);
    expect(awkProgramEffects('{ print ($1 >= 3) }').writes).toBe(false);
    expect(awkProgramEffects('{ print NR>1 }').writes).toBe(true);
    expect(awkProgramEffects('{ print > "out" }').writes).toBe(true);
    expect(awkProgramEffects('{ print ($1) > "out" }').writes).toBe(true);
    expect(awkProgramEffects('NR>1 { print >> "log" }').writes).toBe(true);
    expect(awkProgramEffects('{ print "(" x > 3 ")" }').writes).toBe(true);
    expect(awkProgramEffects('$1>>2').writes).toBe(true);
    expect(awkProgramEffects('{ for (i = NF; i > 1; i--) printf("%s ", $i) }').writes).toBe(false);
    expect(awkProgramEffects('{ for (print > f; i < 2; i++) x }').writes).toBe(true);
  });

  it('finds getline from a file, ARGV, ENVIRON and PROCINFO anywhere', () => {
    expect(awkProgramEffects('BEGIN { while ((getline l < "/etc/shadow") > 0) print l }').reads).toBe(true);
    expect(awkProgramEffects('{ getline; print }').reads).toBe(false);
    expect(awkProgramEffects('BEGIN { ARGV[1] = "/home/user/.ssh/id_rsa"; ARGC = 2 } { print }').argv).toBe(true);
    expect(awkProgramEffects('BEGIN { print ENVIRON["TOKEN"] }').env).toBe(true);
    expect(awkProgramEffects('BEGIN { PROCINFO["sorted_in"] = "@ind_str_asc" }').unknown).toBe(true);
  });
});

describe('awk verdicts', () => {
  it('keeps reading and printing allowed', async () => {
    for (const c of ["awk '{print $1}' file", "awk -F, 'NR>1 {print $2}' data.csv", "awk '{ if ($3 > 100) print $1 }' f", "awk '{s+=$1} END {print s}' f"]) {
      expect((await check(c)).level, c).toBe('allow');
    }
  });

  it('asks when the program runs, loads, writes, or reads what it names', async () => {
    expect(rules(await check(`awk '{ print /;/ ? 1 : 0 | "sh" }' f`))).toContain('exec');
    expect(rules(await check(`gawk 'BEGIN { f = "sys" "tem"; @f("id") }'`))).toContain('exec');
    expect((await check(`awk '@include "lib.awk"' f`)).level).toBe('ask');
    expect((await check(`awk -e 'NR>1 {' -e 'print > "f" }' data`)).level).toBe('ask');
    expect((await check(`awk 'BEGIN { ARGV[1] = "/home/user/.ssh/id_rsa"; ARGC = 2 } { print }'`)).level).toBe('ask');
    const env = await check(`awk 'BEGIN { print ENVIRON["AWS_SECRET_ACCESS_KEY"] }'`);
    expect(env.level).toBe('ask');
    expect(ops(env)).toContain('Env awk');
  });

  it('lets --sandbox turn off system() and redirections, not @include, ARGV or ENVIRON', async () => {
    expect((await check(`gawk --sandbox 'BEGIN { system("id") }'`)).level).toBe('allow');
    expect((await check(`gawk --sandbox '@include "lib.awk"'`)).level).toBe('ask');
    expect((await check(`gawk --sandbox 'BEGIN { ARGV[1] = "notes.txt"; ARGC = 2 } { print }'`)).level).toBe('ask');
    expect((await check(`gawk --sandbox 'BEGIN { print ENVIRON["TOKEN"] }'`)).level).toBe('ask');
  });
});
