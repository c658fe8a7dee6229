/**
 * The Perl prover's closed grammar (issue 27, class 2), against perl's own reading: whatever it
 * accepts, perl compiles to no op outside a whitelist of ops that only match, compute and print
 * (B::Concise lists them; skipped where perl is not installed).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { provePerl } from '../../../src/programs/inline-code/perl.js';

const hasPerl = spawnSync('perl', ['-e', '1']).status === 0;

/** Ops that only loop over input, match, substitute, compute and print (an `ex-` op is one optimised away). */
const PURE_OPS = new Set(
  (
    'nextstate dbstate null const gv gvsv rv2sv rv2av aelem aelemfast aelemfast_lex padsv sassign and or not unstack split chomp schomp ' +
    'readline lineseq leaveloop leave enter enterloop defined pushmark print prtf concat multiconcat stringify match subst substcont trans ' +
    'add subtract multiply divide modulo negate preinc postinc i_preinc i_postinc eq ne lt gt le ge i_eq i_ne i_lt i_gt i_le i_ge ' +
    'seq sne slt sgt sle sge next leavesub list scope padrange multideref helem rv2hv local'
  ).split(' '),
);

/** The ops perl compiles `code` to, run as `perl -lane` (its main program and its END blocks). */
function perlOps(code: string): string[] {
  const out = spawnSync('perl', ['-MO=Concise,-main,END', '-lane', code], { encoding: 'utf8' });
  return [...out.stdout.matchAll(/^\S+\s+<[^>]+>\s+([a-z0-9_-]+)/gm)].map((m) => m[1].replace(/^ex-/, ''));
}

describe.skipIf(!hasPerl)('a property of the Perl prover', () => {
  const pieces = [
    'print',
    'printf',
    ' if ',
    ' unless ',
    '/x/',
    'm/a/',
    '$t',
    '$.',
    '$_',
    '$F[1]',
    ' /1;system 1;#/',
    '/1;system 1;#/',
    's/a/b/',
    's/(a)/$1/',
    'e',
    'g',
    '"$x"',
    '"@{[system 1]}"',
    '"${\\ system 1}"',
    '/(?{ system 1 })/',
    "'s'",
    ' . ',
    '.',
    '/',
    ' + ',
    '+=',
    ' = ',
    ' and ',
    ' || ',
    '!',
    '=~',
    ' > ',
    ' eq ',
    '1',
    '2',
    ' ',
    ';',
    'END{',
    '}',
    '{',
    '[',
    '(',
    ')',
    '\\',
    '#',
    '\n',
    '\n=pod\n',
    'time',
    'system 1',
    'tr/a-z/A-Z/',
    ',',
    'my ',
    'local $/',
    '$j->{a}',
    '->{system 1}',
    '->[1]',
    'chomp',
    '/(?<!a)b(?=c)/',
    '(?<',
  ];
  const fragments = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }).map((p) => p.join(''));
  // Statements of the grammar with a hazard spliced in, so that many programs come close to a proof.
  const statement = fc
    .tuple(
      fc.constantFrom('print', 'print $t', 'print $t/2', '$t += $F[1]', 's/a/b/g', 'printf "%d", $n', 'END { print $t }', 'next'),
      fc.constantFrom('', '', ' if /x/', ' unless m/y/i', ' if $F[1] > 2', ' if $_ =~ /z/ and /w/'),
      fc.constantFrom('', '', '', ...pieces),
    )
    .map(([a, b, c]) => a + c + b);
  const structured = fc.array(statement, { minLength: 1, maxLength: 3 }).map((s) => s.join('; '));
  const programs = fc.oneof(fragments, structured);

  it('accepts a program only if perl compiles it to no call and no op outside the whitelist', () => {
    fc.assert(
      fc.property(programs, (code) => {
        if (!provePerl(code).proven) return true;
        const ops = perlOps(code);
        return ops.length > 0 && ops.every((op) => PURE_OPS.has(op));
      }),
      { numRuns: 1500 },
    );
  }, 120_000);

  it('accepts enough of them for the property to mean something', () => {
    const sample = fc.sample(programs, { numRuns: 4000, seed: 27 });
    expect(sample.filter((c) => provePerl(c).proven).length).toBeGreaterThan(100);
  });

  it('knows an unsafe op when perl compiles one', () => {
    expect(perlOps('time /1;system 1;#/')).toContain('system');
    expect(perlOps('END { print `id` }')).toContain('backtick');
  });
});
