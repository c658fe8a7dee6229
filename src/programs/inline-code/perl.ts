/**
 * Proves a Perl one-liner only reads and prints: every name is a builtin that computes or prints
 * (`print`, `split`, `join`, `sprintf`, `length`…), a keyword, `BEGIN`/`END`, a filehandle of the
 * standard streams, a bareword hash key, or a function of a `use`d module from the list below.
 * `system`, `exec`, `open`, `eval`, `do`, `require`, `unlink`…, `sub`, method calls, and `@ARGV`
 * (whose names `<>` opens with the two-argument `open`: `>file` writes, `cmd|` runs) are not proven.
 */
import { isDunder, notProven, ProofBuilder, READABLE_VARIABLES, type Proof } from './proof.js';
import { perlTokens, type PerlToken } from './perl-tokens.js';

const WORDS = new Set([
  'print',
  'printf',
  'say',
  'split',
  'join',
  'length',
  'sprintf',
  'lc',
  'uc',
  'lcfirst',
  'ucfirst',
  'substr',
  'index',
  'rindex',
  'sort',
  'reverse',
  'keys',
  'values',
  'each',
  'exists',
  'defined',
  'delete',
  'push',
  'pop',
  'shift',
  'unshift',
  'scalar',
  'int',
  'abs',
  'sqrt',
  'chomp',
  'chop',
  'chr',
  'ord',
  'hex',
  'oct',
  'map',
  'grep',
  'local',
  'my',
  'our',
  'if',
  'unless',
  'else',
  'elsif',
  'for',
  'foreach',
  'while',
  'until',
  'last',
  'next',
  'and',
  'or',
  'not',
  'xor',
  'eq',
  'ne',
  'lt',
  'gt',
  'le',
  'ge',
  'cmp',
  'x',
  'BEGIN',
  'END',
  'exit',
  'die',
  'warn',
  'time',
  'localtime',
  'gmtime',
  'undef',
  'ref',
  'quotemeta',
  'pos',
  'eof',
  'lc',
  'sin',
  'cos',
  'exp',
  'log',
  'atan2',
  'STDIN',
  'STDOUT',
  'STDERR',
  'wantarray',
]);

/** Modules a one-liner may `use` (or `-M`), with the functions they export that it may call. */
export const PERL_MODULES: Readonly<Record<string, readonly string[]>> = {
  strict: [],
  warnings: [],
  utf8: [],
  feature: [],
  'List::Util': ['sum', 'sum0', 'max', 'min', 'maxstr', 'minstr', 'first', 'uniq', 'uniqnum', 'shuffle', 'reduce', 'any', 'all', 'none', 'pairs'],
  'Scalar::Util': ['looks_like_number', 'blessed', 'reftype'],
  'JSON::PP': ['decode_json', 'encode_json'],
  'Data::Dumper': ['Dumper'],
  'MIME::Base64': ['encode_base64', 'decode_base64'],
  'Digest::MD5': ['md5_hex'],
};

/** Proves `code`; `modules` are those loaded by `-M` (already checked against PERL_MODULES). */
export function provePerl(code: string, modules: readonly string[] = []): Proof {
  const tokens = perlTokens(code);
  if (tokens === null) return notProven('the Perl code could not be read');
  const proof = new ProofBuilder();
  const callable = new Set<string>(WORDS);
  for (const m of modules) for (const f of PERL_MODULES[m] ?? []) callable.add(f);
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i];
    if (t.kind === 'name' && t.text === 'use') {
      const used = useStatement(tokens, i, callable);
      if (typeof used === 'string') return notProven(used);
      i = used;
      continue;
    }
    const why = checkToken(tokens, i, callable, proof);
    if (why !== null) return notProven(why);
    i++;
  }
  return proof.done();
}

function checkToken(tokens: PerlToken[], i: number, callable: ReadonlySet<string>, proof: ProofBuilder): string | null {
  const t = tokens[i];
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  for (const name of t.env ?? []) if (!READABLE_VARIABLES.has(name)) return `reads the environment variable ${name}`;
  if (t.kind === 'op' && t.text === '->') return next?.text === '{' || next?.text === '[' ? null : 'a method call or code reference';
  if (t.kind === 'var') return checkVariable(tokens, i, proof);
  if (t.kind !== 'name') return null;
  if (isDunder(t.text)) return `\`${t.text}\``;
  if (next?.text === '=>') return null; // a bareword the fat comma quotes
  // `$h{key}`, `$x->{key}`: a bareword subscript.
  const subscript =
    prev?.text === '{' &&
    next?.text === '}' &&
    ['var', 'op'].includes(tokens[i - 2]?.kind ?? '') &&
    (tokens[i - 2].kind === 'var' || ['->', '}', ']'].includes(tokens[i - 2].text));
  if (subscript) return null;
  if (callable.has(t.text)) return null;
  return `\`${t.text}\` is not a builtin known to be pure`;
}

/** `%ENV` is the whole environment, `$ENV{NAME}` one variable; `@ARGV` is what `<>` opens. */
function checkVariable(tokens: PerlToken[], i: number, proof: ProofBuilder): string | null {
  const v = tokens[i].text;
  const name = v.replace(/^[$@%]#?/, '');
  if (name === 'ARGV' && (v !== '$ARGV' || tokens[i + 1]?.text === '[')) return '`@ARGV` names the files `<>` opens';
  if (name === 'INC' || name === 'SIG' || (name === 'ENV' && v === '@ENV')) return `\`${v}\``;
  if (name !== 'ENV') return null;
  if (v === '%ENV') {
    proof.wholeEnvironment = true;
    return null;
  }
  const key = tokens[i + 2];
  if (tokens[i + 1]?.text === '{' && tokens[i + 3]?.text === '}' && key?.kind === 'name')
    return READABLE_VARIABLES.has(key.text) ? null : `reads the environment variable ${key.text}`;
  if (tokens[i + 1]?.text === '{' && tokens[i + 3]?.text === '}' && key?.kind === 'string' && /^['"]\w+['"]$/.test(key.text))
    return READABLE_VARIABLES.has(key.text.slice(1, -1)) ? null : `reads the environment variable ${key.text}`;
  return 'an environment variable named at run time';
}

/** `use MODULE LIST;` with MODULE on the list: its functions become callable. The index after, or why not. */
function useStatement(tokens: PerlToken[], i: number, callable: Set<string>): number | string {
  const m = tokens[i + 1];
  if (m?.kind !== 'name' || !Object.prototype.hasOwnProperty.call(PERL_MODULES, m.text)) return `\`use ${m?.text ?? ''}\`: not a module known to be pure`;
  for (const f of PERL_MODULES[m.text]) callable.add(f);
  let j = i + 2;
  while (j < tokens.length && tokens[j].text !== ';') {
    if (!(tokens[j].kind === 'string' || [',', '(', ')'].includes(tokens[j].text))) return `\`use ${m.text}\` with an argument that is not a literal`;
    j++;
  }
  return j;
}
