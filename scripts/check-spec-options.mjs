// Compare every `complete` command spec with the documentation of the program installed here.
//
//   node scripts/check-spec-options.mjs [PROGRAM…]          check complete specs (all, or these)
//   node scripts/check-spec-options.mjs --draft PROGRAM [SUB…]  print the options the docs list
//                                                              and the spec lacks, as JSON to review
//
// A spec's `complete` names the documentation its option table was checked against, with the
// commands that show it in parentheses: "GNU coreutils 9.1 (ls --help; man ls)". This script runs
// those commands (only `PROG [SUB…] --help|-h|help`, `man PAGE` and `help BUILTIN`), reads the
// option spellings they list and prints, per spec: options the docs list and the table lacks,
// and options whose value the docs and the table disagree on. A maintenance tool, not a test:
// another machine may carry another version. Exit status 1 when something is missing.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../rules/commands/', import.meta.url));

/**
 * Differences a maintainer checked and keeps, by "program[ sub] option": why the table may differ
 * from what the installed documentation says.
 */
const KNOWN_DIFFERENCES = {
  'stat -f': 'BSD stat -f FORMAT takes a value; GNU -f is a flag. The value is read with the operand role (read), so both readings give the same operations',
  'stat -t': 'BSD stat -t TIMEFMT takes a value; GNU -t is a flag; the value would be an operand read as a file under GNU: harmless either way (text or workspace read)',
  'date -r': 'GNU date -r FILE, BSD date -r SECONDS: value either way, read as a file (the strictest)',
  'top -s': 'macOS top -s DELAY takes a value; procps top -s is a flag (top takes no operands)',
  'top -o': 'macOS top -o KEY, procps top -o FIELD: both take a value',
  'uniq -f': 'both GNU and BSD take a value',
};

/** Lines of documentation that look like options but are not this program's. */
const NOT_OPTIONS = new Set(['-', '--', '-NUM']);

function run(cmd) {
  const words = cmd.trim().split(/\s+/);
  const env = { ...process.env, LC_ALL: 'C', COLUMNS: '200', MANWIDTH: '200', MAN_KEEP_FORMATTING: '', PAGER: 'cat', MANPAGER: 'cat', GIT_PAGER: 'cat' };
  const opts = { env, encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 << 20 };
  const capture = (file, args) => {
    try {
      return execFileSync(file, args, opts);
    } catch (e) {
      // --help of many programs exits non-zero; what it printed still counts.
      return `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
  };
  if (words[0] === 'man' && words.length === 2) return capture('man', ['-P', 'cat', words[1]]).replace(/.\x08/g, '');
  if (words[0] === 'help' && words.length === 2) return capture('bash', ['-c', `help ${words[1].replace(/[^A-Za-z_.:[\]-]/g, '')}`]);
  const last = words[words.length - 1];
  if (['--help', '-h', 'help', '--help-all', '-help'].includes(last) && words.every((w) => /^[A-Za-z0-9._:[\]-]+$/.test(w))) return capture(words[0], words.slice(1));
  throw new Error(`not a documentation command: ${cmd}`);
}

/** The commands named in a `complete` string: "GNU grep 3.8 (grep --help; man grep)". */
export function docCommands(complete) {
  const m = /\(([^()]*)\)\s*$/.exec(complete);
  return m ? m[1].split(/[;,]/).map((s) => s.trim()).filter(Boolean) : [];
}

/**
 * Option spellings a help text or man page lists, with whether they take a value: at the start
 * of a line, `-a, --all`, `--block-size=SIZE`, `-e PATTERNS`, `--color[=WHEN]`, `-a array`.
 */
export function documentedOptions(text) {
  const out = new Map();
  const note = (name, value) => {
    if (NOT_OPTIONS.has(name)) return;
    const before = out.get(name);
    if (before === undefined || before === false || (before === 'optional' && value === true)) out.set(name, value);
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\t/g, '    ');
    const m = /^\s*(?=[-+]{1,2}[A-Za-z0-9#?@])/.exec(line);
    if (!m) continue;
    let rest = line.slice(m[0].length);
    const found = [];
    const upperArg = [];
    for (;;) {
      const t = /^([-+]{1,2}[A-Za-z0-9#?@][-A-Za-z0-9_.#?@]*)/.exec(rest);
      if (!t) break;
      let name = t[1];
      rest = rest.slice(name.length);
      let value = false;
      const arg =
        /^\[=?[^\]\s]+\]/.exec(rest) ?? // --color[=WHEN], -i[SUFFIX]
        /^=(?:<[^>]+>|[^\s,\]]+)/.exec(rest) ?? // --size=SIZE
        /^<[^>]+>/.exec(rest) ?? // -L<range>
        /^ (?:<[^>]+>|\[[^\]]+\]|[A-Z][A-Z0-9_.:-]*\b|[a-z][a-z0-9_-]*(?=\s{2,}|$|,))/.exec(rest); // -e PATTERNS, -a array
      if (arg) {
        value = arg[0].startsWith('[') ? 'optional' : true;
        upperArg[found.length] = /^[= ]?(?:<|[A-Z])/.test(arg[0]);
        rest = rest.slice(arg[0].length);
      }
      name = name.replace(/[.,:]+$/, '');
      found.push([name, value]);
      const sep = /^(?:, ?| \| |\| ?| or | ?\/ ?)(?=[-+])/.exec(rest);
      if (!sep) break;
      rest = rest.slice(sep[0].length);
    }
    // The rest of the line must look like the end of an option list: spacing, then a description.
    if (found.length === 0 || !(rest === '' || /^\s{2,}|^\s*$/.test(rest) || found.length > 1)) continue;
    // GNU --help: a mandatory argument of the long option is mandatory for the short one too.
    // (`-p, --indicator-style=slash` is a spelling with a fixed value: -p is a flag.)
    const longValue = found.find(([n, v], k) => n.startsWith('--') && v === true && upperArg[k]);
    for (const [n, v] of found) note(n, longValue && v === false && !n.startsWith('--') ? true : v);
  }
  return out;
}

function specFiles() {
  const specs = new Map();
  for (const f of readdirSync(DIR).filter((x) => x.endsWith('.json') && x !== 'index.json').sort()) {
    for (const [program, spec] of Object.entries(JSON.parse(readFileSync(join(DIR, f), 'utf8')))) specs.set(program, spec);
  }
  return specs;
}

/** Every spec with `complete` under a program (itself and its subcommands), with its path. */
function* completeSpecs(program, spec, path = [program], parentOptions = {}) {
  if (spec.alias) return;
  const options = spec.inheritOptions ? { ...parentOptions, ...(spec.options ?? {}) } : spec.options ?? {};
  if (spec.complete) yield { path, spec, options };
  for (const [sub, s] of Object.entries(spec.subcommands ?? {})) yield* completeSpecs(program, s, [...path, sub], options);
}

function compare(path, spec, options) {
  const docs = new Map();
  for (const cmd of docCommands(spec.complete)) for (const [n, v] of documentedOptions(run(cmd))) if (!docs.has(n) || docs.get(n) === false) docs.set(n, v);
  const problems = [];
  if (docs.size === 0) problems.push(`no options found in the documentation named by "${spec.complete}" (is it installed here?)`);
  for (const [name, value] of docs) {
    const o = options[name];
    const known = KNOWN_DIFFERENCES[`${path.join(' ')} ${name}`];
    if (o === undefined) problems.push(`missing ${name}${value === true ? ' (takes a value)' : value === 'optional' ? ' (optional value)' : ''}`);
    else if (known) continue;
    else if (value === true && !(o.value === true || o.values)) problems.push(`${name}: the docs give it a value, the table does not`);
    else if (value === false && (o.value === true || o.values) && !name.startsWith('--')) problems.push(`${name}: the table gives it a value, the docs do not`);
  }
  return problems;
}

function main(argv) {
  const specs = specFiles();
  if (argv[0] === '--draft') {
    const [program, ...subs] = argv.slice(1);
    let spec = specs.get(program);
    for (const s of subs) spec = spec?.subcommands?.[s];
    const cmds = spec?.complete ? docCommands(spec.complete) : [`${[program, ...subs].join(' ')} --help`, `man ${[program, ...subs].join('-')}`];
    const texts = cmds.map((c) => run(c)).join('\n');
    const lines = texts.split('\n');
    const draft = {};
    for (const [name, value] of documentedOptions(texts)) {
      if (spec?.options?.[name] !== undefined) continue;
      draft[name] = value === true ? { value: true } : value === 'optional' ? { value: 'optional' } : {};
      const where = lines.find((l) => new RegExp(`(^|[\\s,])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([\\s,=\\[<]|$)`).test(l));
      console.error(`${name.padEnd(28)} ${where?.trim().slice(0, 150) ?? ''}`);
    }
    console.log(JSON.stringify(draft));
    return 0;
  }
  let bad = 0;
  let checked = 0;
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
      if (problems.length === 0) continue;
      bad++;
      console.log(`${path.join(' ')} (${s.complete}):\n  ${problems.join('\n  ')}`);
    }
  }
  console.log(`${checked} complete spec(s) checked, ${bad} with differences`);
  return bad > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
