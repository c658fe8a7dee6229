// Compare every complete command spec with the documentation of the program installed here, or
// draft the option table of a new spec (docs/specs.md, "Add a program").
//
//   node scripts/check-spec-options.mjs [PROGRAM…]          check complete specs (all, or these)
//   node scripts/check-spec-options.mjs --draft PROGRAM [SUB…]  print the options the docs list
//                                                              and the spec lacks, as JSON to review
//
// A spec's `source` names the documentation its option table came from, with the commands that
// show it in parentheses: "GNU coreutils 9.1 (ls --help; man ls)"; `"complete": true` says the
// table was checked against it and lists every option. For complete specs this script runs
// those commands (only `PROG [SUB…] --help|-h|help`, `man PAGE` and `help BUILTIN`), reads the
// option spellings they list and prints, per spec: options the docs list and the table lacks,
// and options whose value the docs and the table disagree on. A maintenance tool, not a test:
// another machine may carry another version. Exit status 1 when something is missing.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../rules/programs/', import.meta.url));

/** What a one-word option stands for (src/programs/check-spec.ts COMPACT_OPTIONS). */
const COMPACT = { flag: {}, value: { value: true }, 'value?': { value: 'optional' } };

/**
 * Differences a maintainer checked and keeps, by "program[ sub] option": why the table may differ
 * from what the installed documentation says.
 */
const KNOWN_DIFFERENCES = {
  'stat -f': 'BSD stat -f FORMAT takes a value; GNU -f is a flag. The value is read with the operand role (read), so both readings give the same operations',
  'stat -t':
    'BSD stat -t TIMEFMT takes a value; GNU -t is a flag; the value would be an operand read as a file under GNU: harmless either way (text or workspace read)',
  'date -r': 'GNU date -r FILE, BSD date -r SECONDS: value either way, read as a file (the strictest)',
  'top -s': 'macOS top -s DELAY takes a value; procps top -s is a flag (top takes no operands)',
  'top -o': 'macOS top -o KEY, procps top -o FIELD: both take a value',
  'uniq -f': 'both GNU and BSD take a value',
  // Documentation that does not show the argument an option takes (checked in the source or usage line).
  'file -P': 'file -P NAME=VALUE (the --help line omits it)',
  'hostname -F': 'hostname -F FILE (usage line: {hostname|-F file})',
  'netstat -A': 'netstat -A FAMILY (see the <AF> note in --help)',
  'ss -N': 'ss -N NSNAME (switch to the named network namespace)',
  'pstree -C': 'pstree -C TYPE (color attribute)',
  'pstree -H': 'pstree -H PID',
  'pstree -N': 'pstree -N TYPE (namespace)',
  'pr -COLUMN': 'a number of columns: -NUM',
  'tput -Ttype': '-T TYPE, listed as -T',
  'fuser -SIGNAL': 'a signal name or number; -NUM is listed, a named signal asks',
  'xz -S': 'xz -S .SUF takes a value (--suffix=.SUF)',
  // dpkg-query's actions take their packages as operands (`-L PKG…`), not as one value.
  'npm ls -w': 'npm -w|--workspace NAME (usage line)',
  'npm query -w': 'npm -w NAME',
  'npm why -w': 'npm -w NAME',
  'npm fund -w': 'npm -w NAME',
  'npm sbom -w': 'npm -w NAME',
  // ip's usage writes `-l[oops] { COUNT }`, `-n[etns] name`: the value is outside the spelling.
  'ip -l': 'ip -l[oops] COUNT',
  'ip -f': 'ip -f[amily] FAMILY',
  'ip -n': 'ip -n[etns] NAME',
  'ip -rc': 'ip -rc[vbuf] SIZE',
  'arp -Ds': 'the bundle -D -s (usage line)',
  'arp -i': 'arp -i IF (usage line)',
  'arp -A': 'arp -A FAMILY',
  'arp -p': 'arp -p FAMILY',
  'arp -f': 'arp -f takes its file as an operand (getopt flag)',
  'arp --file': 'arp --file takes its file as an operand',
  // clap's `[<SPEC>]`: an optional value that still takes the next word when one follows.
  'cargo tree -p': 'clap optional value',
  'cargo tree -i': 'clap optional value',
  'cargo pkgid -p': 'clap optional value',
  'top -O': 'macOS top -O SKEY takes a value; procps -O (list fields) is a flag',
  // Synopsis artefacts: `[-Ttype]` is -T TYPE; `[-SIGNAL]` is a signal; `--nu‐meric-users` is hyphenated.
  'clear -t': '-Ttype',
  'clear -y': '-Ttype',
  'clear -p': '-Ttype',
  'clear -e': '-Ttype',
  'tput -t': '-Ttype',
  'tput -y': '-Ttype',
  'tput -p': '-Ttype',
  'tput -e': '-Ttype',
  'fuser -S': '-SIGNAL',
  'fuser -I': '-SIGNAL',
  'fuser -G': '-SIGNAL',
  'fuser -N': '-SIGNAL',
  'fuser -A': '-SIGNAL',
  'fuser -L': '-SIGNAL',
  'netstat --nu-': 'a hyphenated line break in --numeric-users',
  'git remote -n': 'an option of git remote show/prune',
  'git remote -p': 'an option of git remote update',
  'git remote --prune': 'an option of git remote update',
  'curl -x': 'curl -x [protocol://]host[:port] takes a value (the bracket is part of it)',
  'git reflog -n': 'git reflog (show) takes log options: -n NUMBER; -n is --dry-run only for expire and delete',
  'dpkg-query -c': 'an action; the package is an operand',
  'fuser -m': 'a flag: NAME is the operand (a file on the mounted file system)',
  'fuser --mount': 'a flag: NAME is the operand',
  'dpkg-query -L': 'an action; the packages are operands',
  'dpkg-query --listfiles': 'an action; the packages are operands',
  'dpkg-query -S': 'an action; the patterns are operands',
  'dpkg-query --search': 'an action; the patterns are operands',
  'dpkg-query --control-list': 'an action; the package is an operand',
  'dpkg-query --control-path': 'an action; the package is an operand',
  // bash's help writes +N and -N for a number (a stack position), listed as +NUM and -NUM.
  'pushd +N': 'a number: +NUM',
  'pushd -N': 'a number: -NUM',
  'popd +N': 'a number: +NUM',
  'popd -N': 'a number: -NUM',
  'dirs +N': 'a number: +NUM',
  'dirs -N': 'a number: -NUM',
};

/** Lines of documentation that look like options but are not this program's. */
const NOT_OPTIONS = new Set(['-', '--']);

function run(cmd) {
  const words = cmd.trim().split(/\s+/);
  const env = { ...process.env, LC_ALL: 'C', COLUMNS: '200', MANWIDTH: '200', MAN_KEEP_FORMATTING: '', PAGER: 'cat', MANPAGER: 'cat', GIT_PAGER: 'cat' };
  const opts = { env, encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 << 20 };
  // Help goes to stdout or stderr, and many programs exit non-zero after it: keep both.
  const capture = (file, args) => {
    const r = spawnSync(file, args, opts);
    return r.error ? `ENOENT ${r.error.message}` : `${r.stdout ?? ''}${r.stderr ?? ''}`;
  };
  if (words[0] === 'man' && words.length === 2) return capture('man', ['-P', 'cat', words[1]]).replace(/.\x08/g, '');
  if (words[0] === 'help' && words.length === 2) return capture('bash', ['-c', `help ${words[1].replace(/[^A-Za-z_.:[\]-]/g, '')}`]);
  const asksHelp = words.slice(1).some((w) => ['--help', '-h', 'help', '--help-all', '-help', '--long-help'].includes(w));
  if (asksHelp && words.every((w) => /^[A-Za-z0-9._:[\]-]+$/.test(w))) return capture(words[0], words.slice(1));
  throw new Error(`not a documentation command: ${cmd}`);
}

/** The commands named in a `source`: "GNU grep 3.8 (grep --help; man grep)". */
export function docCommands(source) {
  const m = /\(([^()]*)\)\s*$/.exec(source);
  return m
    ? m[1]
        .split(/[;,]/)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/**
 * Option spellings a help text or man page lists, with whether they take a value: at the start
 * of a line, `-a, --all`, `--block-size=SIZE`, `-e PATTERNS`, `--color[=WHEN]`, `-a array`.
 */
export function documentedOptions(text, command) {
  const { out, note } = optionNotes();
  let section = '';
  for (const raw of text.split('\n')) {
    if (/^[A-Z][A-Z ]+$/.test(raw)) section = raw.trim(); // a man page section header
    if (section === 'SYNOPSIS' && /^\s+\S/.test(raw)) noteManSynopsis(raw, command, note);
    else if (!noteHelpSynopsis(raw, note)) for (const [n, v] of optionsOnLine(raw)) note(n, v);
  }
  return out;
}

/**
 * The options found so far, and how a new sighting is merged: `value` true, false, 'optional',
 * or undefined (exists, value unknown); `synopsis`: from a usage line, which wins over the option
 * list (`enable [-f filename]`).
 */
function optionNotes() {
  const out = new Map();
  const strong = new Set();
  const note = (name, value, synopsis = false) => {
    if (NOT_OPTIONS.has(name) || strong.has(name)) return;
    if (synopsis) strong.add(name);
    const before = out.get(name);
    // A man page synopsis says an option exists, not whether it takes the next word.
    if (value === undefined) {
      if (before === undefined) out.set(name, undefined);
      return;
    }
    if (before === undefined && out.has(name)) {
      out.set(name, value);
      return;
    }
    // Listed both bare and with a value (`--check`, `--check=quiet`): the value is optional.
    if (!synopsis && before !== undefined && before !== value && (before === false || value === false)) out.set(name, 'optional');
    else if (before === undefined || synopsis || (before === 'optional' && value === true)) out.set(name, value);
  };
  return { out, note };
}

/**
 * A man page's SYNOPSIS names options the option list may leave out (`git diff --cached`).
 * Only the lines of this very command (`git remote [-v]`, not `git remote add [-t <b>]`); a
 * synopsis shows which options exist, and a value only when it is attached (`--type=<t>`).
 */
function noteManSynopsis(raw, command, note) {
  const own = command === undefined || new RegExp(`^\\s+${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+[-[]`).test(raw);
  if (!own) return;
  for (const g of raw.matchAll(/(?<![\w<-])(--?[A-Za-z][\w-]*)(=<[^>]*>)?/g)) {
    // `[-abc]` is a bundle of single-letter options; elsewhere `-name` is one option.
    const bundle = !g[1].startsWith('--') && g[1].length > 2 && /\[ ?$/.test(raw.slice(0, g.index)) && /^ ?\]/.test(raw.slice(g.index + g[0].length));
    if (bundle) for (const ch of g[1].slice(1)) note('-' + ch, undefined);
    else note(g[1], g[2] !== undefined ? true : undefined);
  }
}

/** bash's `help NAME` starts with a synopsis: `read: read [-ers] [-a array] [-d delim] …`. */
function noteHelpSynopsis(raw, note) {
  const synopsis = /^([\w.[:-]+): \1 (.*)$/.exec(raw);
  if (!synopsis) return false;
  for (const g of synopsis[2].matchAll(/\[([-+])([A-Za-z0-9]+)(?: ([a-z][\w-]*|[A-Z][\w-]*))?\]/g)) {
    if (g[3] !== undefined) note(g[1] + g[2], true, true);
    else for (const ch of g[2]) note(g[1] + ch, false, true);
  }
  return true;
}

/** The options a line of an option list starts with (`-a, --all   do not ignore…`), with their values. */
function optionsOnLine(raw) {
  const line = raw.replace(/\t/g, '    ');
  const m = /^\s*(?=[-+]{1,2}[A-Za-z0-9#?@]|--\[no-\]|-<)/.exec(line);
  if (!m) return [];
  let rest = line.slice(m[0].length);
  const found = [];
  const upperArg = [];
  for (;;) {
    // `-<number>` (git log -5) is a dash and digits: -NUM. `--[no-]foo` is --foo and --no-foo.
    const numeric = /^-<(?:n|num|number)>/.exec(rest);
    const negatable = /^--\[no-\]([A-Za-z0-9][-A-Za-z0-9_.]*)/.exec(rest);
    const t = numeric ?? negatable ?? /^([-+]{1,2}[A-Za-z0-9#?@][-A-Za-z0-9_.#?@]*)/.exec(rest);
    if (!t) break;
    let name = numeric ? '-NUM' : negatable ? `--${negatable[1]}` : t[1];
    if (numeric) {
      found.push([name, false]);
      rest = rest.slice(t[0].length);
      const sep0 = /^, ?(?=[-+])/.exec(rest);
      if (!sep0) break;
      rest = rest.slice(sep0[0].length);
      continue;
    }
    if (negatable) found.push([`--no-${negatable[1]}`, false]);
    rest = rest.slice(t[0].length);
    let value = false;
    const arg =
      /^ ?\[=?[^\]\s]+\]/.exec(rest) ?? // --color[=WHEN], -i[SUFFIX], --width [=COLUMNS]
      /^ ?=(?:<[^>]+>|\{[^}]*\}|(?:\[[-+]\])?[^\s,\]]+)/.exec(rest) ?? // --size=SIZE, --lines=[-]NUM, --delay =SECS, --radix={o,d,x}
      /^<[^>]+>/.exec(rest) ?? // -L<range>
      /^ (?:<[^>]+>|\[[^\]]+\]|[A-Z][A-Z0-9_.:-]*\b|[a-z][a-z0-9_-]*(?=\s{2,}|$|,))/.exec(rest); // -e PATTERNS, -a array
    if (arg) {
      value = arg[0].trimStart().startsWith('[') ? 'optional' : true;
      // A placeholder after a space (`-f, --filter filter`) or in capitals is an argument the short
      // spelling shares; `--indicator-style=slash` is one fixed value of a long option.
      upperArg[found.length] = /^ [^=]|^ ?=?(?:\[[-+]\])?\[?(?:<|\{|[A-Z])/.test(arg[0]);
      rest = rest.slice(arg[0].length);
    }
    name = name.replace(/[.,:]+$/, '');
    found.push([name, value]);
    const sep = /^(?:, ?| \| |\| ?| or | ?\/ ?|\s{1,3}(?=--[A-Za-z]))(?=[-+])/.exec(rest);
    if (!sep) break;
    rest = rest.slice(sep[0].length);
  }
  // The rest of the line must look like the end of an option list: spacing, then a description.
  // (A trailing comma continues the list on the next line: `--color[=WHEN],`.)
  if (found.length === 0 || !(rest === '' || /^\s{2,}|^,?\s*$/.test(rest) || found.length > 1)) return [];
  // GNU --help: a mandatory argument of the long option is mandatory for the short one too.
  // (`-p, --indicator-style=slash` is a spelling with a fixed value: -p is a flag.)
  const longValue = found.find(([n, v], k) => n.startsWith('--') && v === true && upperArg[k]);
  return found.map(([n, v]) => [n, longValue && v === false && !n.startsWith('--') && n !== '-NUM' ? true : v]);
}

/** Program → spec, one file per program (the file name is the program, %XX-escaped). */
function specFiles() {
  const specs = new Map();
  for (const f of readdirSync(DIR)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const { $schema: _schema, ...spec } = JSON.parse(readFileSync(join(DIR, f), 'utf8'));
    specs.set(decodeURIComponent(f.slice(0, -'.json'.length)), spec);
  }
  return specs;
}

/** A spec's options with the one-word forms as objects (`"value"` → `{ value: true }`). */
function fullOptions(options = {}) {
  return Object.fromEntries(Object.entries(options).map(([n, o]) => [n, typeof o === 'string' ? COMPACT[o] : o]));
}

/** Every complete spec under a program (itself and its subcommands), with its path. */
function* completeSpecs(program, spec, path = [program], parentOptions = {}) {
  if (spec.alias) return;
  const options = spec.inheritOptions ? { ...parentOptions, ...fullOptions(spec.options) } : fullOptions(spec.options);
  if (spec.complete === true) yield { path, spec, options };
  for (const [sub, s] of Object.entries(spec.subcommands ?? {})) yield* completeSpecs(program, s, [...path, sub], options);
}

function compare(path, spec, options) {
  // No options at all (test, [, expr): every word is an operand, nothing to compare.
  if (spec.optionSyntax === 'none') return [];
  const docs = new Map();
  let text = '';
  for (const cmd of docCommands(spec.source)) {
    const out = run(cmd);
    text += out;
    for (const [n, v] of documentedOptions(out, path.join(' '))) if (!docs.has(n) || docs.get(n) === false) docs.set(n, v);
  }
  const problems = [];
  // A program may document no option at all (`docker top`); no text at all means it is not here:
  // that spec cannot be checked on this machine (null), which is not a difference.
  if (!/\w/.test(text) || /not found|No manual entry|unknown command|ENOENT/i.test(text.slice(0, 200))) return null;
  for (const [name, value] of docs) {
    const o = options[name];
    const known = KNOWN_DIFFERENCES[`${path.join(' ')} ${name}`];
    if (known) continue;
    if (o === undefined) problems.push(`missing ${name}${value === true ? ' (takes a value)' : value === 'optional' ? ' (optional value)' : ''}`);
    // An optional value never takes the next word: that word stays an operand and is analysed.
    else if (value === true && !(o.value === true || o.value === 'optional' || o.values))
      problems.push(`${name}: the docs give it a value, the table does not`);
    else if (value === false && (o.value === true || o.values) && !name.startsWith('--')) problems.push(`${name}: the table gives it a value, the docs do not`);
  }
  return problems;
}

/** The one-word option a documented value reading gives (documentedOptions: true, 'optional', false). */
const DRAFT_WORD = new Map([
  [true, 'value'],
  ['optional', 'value?'],
  [false, 'flag'],
]);

function main(argv) {
  const specs = specFiles();
  if (argv[0] === '--draft') {
    const [program, ...subs] = argv.slice(1);
    let spec = specs.get(program);
    if (spec?.alias) spec = specs.get(spec.alias);
    for (const s of subs) spec = spec?.subcommands?.[s];
    const cmds =
      spec?.source && docCommands(spec.source).length > 0
        ? docCommands(spec.source)
        : [`${[program, ...subs].join(' ')} --help`, `man ${[program, ...subs].join('-')}`];
    const texts = cmds.map((c) => run(c)).join('\n');
    const lines = texts.split('\n');
    const draft = {};
    for (const [name, value] of documentedOptions(texts)) {
      if (spec?.options?.[name] !== undefined) continue;
      // The compact words of the spec files; an option with a role or class is edited by hand.
      draft[name] = DRAFT_WORD.get(value) ?? 'flag';
      const where = lines.find((l) => new RegExp(`(^|[\\s,])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([\\s,=\\[<]|$)`).test(l));
      console.error(`${name.padEnd(28)} ${where?.trim().slice(0, 150) ?? ''}`);
    }
    console.log(JSON.stringify(draft));
    return 0;
  }
  let bad = 0;
  let checked = 0;
  const skipped = [];
  for (const [program, spec] of specs) {
    if (argv.length > 0 && !argv.includes(program)) continue;
    for (const { path, spec: s, options } of completeSpecs(program, spec)) {
      checked++;
      let problems;
      try {
        problems = compare(path, s, options);
      } catch (e) {
        problems = [e.message];
      }
      if (problems === null) {
        skipped.push(path.join(' '));
        continue;
      }
      if (problems.length === 0) continue;
      bad++;
      console.log(`${path.join(' ')} (${s.source}):\n  ${problems.join('\n  ')}`);
    }
  }
  if (skipped.length > 0) console.log(`not installed here, not checked: ${skipped.join(', ')}`);
  console.log(`${checked - skipped.length} complete spec(s) checked, ${bad} with differences`);
  return bad > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
