/**
 * Programs whose effect is not in their argv shape alone: the program text of sed and awk, find's
 * expression language, tar's modes, dd's `of=`, curl's `@file` uploads, pagers that run commands.
 * Each handler adds operations and may change the class; `skipOperands` tells the caller it has
 * already handled the operands.
 */
import type { Arg } from '../walk/types.js';
import type { CommandClass } from './spec-types.js';
import type { OpBuilder } from './operations.js';
import { hasOption, parseArgv, type ParsedArgv } from './parse-argv.js';

export interface HandlerResult {
  class?: CommandClass;
  /** The handler made the operations for every operand and option value itself. */
  skipOperands?: boolean;
}

export type Handler = (b: OpBuilder, parsed: ParsedArgv | null) => HandlerResult | void;

const FIND_VALUE = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype',
  '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-user', '-group', '-uid', '-gid', '-perm',
  '-maxdepth', '-mindepth', '-links', '-inum', '-printf', '-fstype', '-regextype', '-context', '-used', '-lname',
  '-ilname', '-D', '-O', '-files0-from',
]);
const FIND_READ = new Set(['-newer', '-anewer', '-cnewer', '-samefile']);
const FIND_WRITE = new Set(['-fprint', '-fprint0', '-fls', '-fprintf']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function find(b: OpBuilder): HandlerResult {
  const args = b.cmd.args;
  let cls: CommandClass = 'read-only';
  const roots: Arg[] = [];
  let i = 0;
  while (i < args.length && ['-H', '-L', '-P'].includes(args[i].value)) i++;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (!args[i].dynamic && (v.startsWith('-') || v === '(' || v === '!' || v === ',')) break;
    roots.push(args[i]);
  }
  const rootArgs = roots.length > 0 ? roots : [{ value: '.', dynamic: false, glob: false, span: b.cmd.span }];
  for (const r of rootArgs) b.path('List', r, 'operand');
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (FIND_READ.has(v) && args[i + 1]) b.path('Read', args[++i], 'option');
    else if (FIND_VALUE.has(v) || v.startsWith('-newer')) i++;
    else if (FIND_WRITE.has(v) && args[i + 1]) {
      b.path('Write', args[++i], 'option');
      if (v === '-fprintf') i++;
      cls = 'mutating';
    } else if (v === '-delete') {
      for (const r of rootArgs) b.path('Delete', { ...r, value: `${r.value.replace(/\/+$/, '')}/**`, glob: true }, 'option');
      cls = 'mutating';
    } else if (FIND_EXEC.has(v)) {
      // The executed command is a sub-command of its own (walk/run-argv.ts).
      while (i < args.length && args[i].value !== ';' && args[i].value !== '+') i++;
    }
  }
  return { class: cls, skipOperands: true };
}

/** sed commands that execute (`e`, `s///e`) or write/read files (`w`, `W`, `r`, `R`, `s///w`). */
export function sedScriptEffects(script: string): { exec: boolean; writes: string[]; reads: string[] } {
  const out = { exec: false, writes: [] as string[], reads: [] as string[] };
  const subst = /s(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1([gpiImMe0-9]*)(?:w\s*([^;\n}]+))?/g;
  let rest = script.replace(subst, (_m, _d: string, flags: string, file: string | undefined) => {
    if (flags.includes('e')) out.exec = true;
    if (file) out.writes.push(file.trim());
    return ';';
  });
  rest = rest.replace(/\/(?:[^/\\\n]|\\.)*\//g, ''); // addresses
  const cmd = /(?:^|[;\n{}])\s*[0-9$,~+!\s]*([ewWrR])(?:\s+([^;\n}]*))?/g;
  for (let m = cmd.exec(rest); m; m = cmd.exec(rest)) {
    const file = (m[2] ?? '').trim();
    if (m[1] === 'e') out.exec = true;
    else if ((m[1] === 'w' || m[1] === 'W') && file) out.writes.push(file);
    else if (file) out.reads.push(file);
  }
  return out;
}

function sed(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const scripts: string[] = [];
  const files = [...p.operands];
  const fromOptions = p.options.filter((o) => ['-e', '--expression'].includes(o.name) && o.value);
  const scriptFiles = p.options.filter((o) => ['-f', '--file'].includes(o.name) && o.value);
  if (fromOptions.length > 0 || scriptFiles.length > 0) scripts.push(...fromOptions.map((o) => o.value!.value));
  else if (files.length > 0) scripts.push(files.shift()!.value);
  const inPlace = hasOption(p, '-i', '--in-place') || p.options.some((o) => o.name.startsWith('-i') || o.name.startsWith('--in-place'));
  for (const f of files) b.path(inPlace ? 'Write' : 'Read', f, 'operand');
  for (const f of scriptFiles) b.path('Read', f.value!, 'option');
  let cls: CommandClass = inPlace ? 'mutating' : 'read-only';
  for (const s of scripts) {
    const fx = sedScriptEffects(s);
    if (fx.exec) {
      b.add('Exec', 'operand', b.cmd.span, { program: 'sh', target: s });
      cls = 'unknown';
    }
    for (const w of fx.writes) {
      b.path('Write', { value: w, dynamic: false, glob: false, span: b.cmd.span }, 'operand');
      if (cls !== 'unknown') cls = 'mutating';
    }
    for (const r of fx.reads) b.path('Read', { value: r, dynamic: false, glob: false, span: b.cmd.span }, 'operand');
  }
  return { class: cls, skipOperands: true };
}

/** awk programs that run commands or write files: `system()`, pipes, `print > file`, getline from a command. */
export function awkProgramEffects(program: string): { exec: boolean; writes: boolean; reads: boolean } {
  const code = program.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const exec = /\bsystem\s*\(|\|\s*getline|\|&|(?:print|printf)\b[^;}]*\|/.test(code) || /"[^"]*"\s*\|\s*getline/.test(program);
  const writes = /(?:print|printf)\b[^;}]*>/.test(code.replace(/\([^()]*\)/g, '()'));
  // `getline < FILE` reads a file the program names.
  const reads = /\bgetline\b[^;}|]*</.test(code);
  return { exec, writes, reads };
}

function awk(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const operands = [...p.operands];
  const programFile = p.options.find((o) => ['-f', '--file'].includes(o.name) && o.value);
  let cls: CommandClass = 'read-only';
  if (programFile) {
    cls = 'unknown'; // the program is in a file we do not read
  } else if (operands.length > 0) {
    const program = operands.shift()!;
    const fx = awkProgramEffects(program.value);
    if (program.dynamic || fx.exec) {
      b.add('Exec', 'operand', program.span, { program: 'sh', target: program.value, dynamic: program.dynamic });
      cls = 'unknown';
    } else if (fx.writes) {
      b.add('Write', 'operand', program.span, { target: program.value, dynamic: true });
      cls = 'mutating';
    }
    if (fx.reads) b.add('Read', 'operand', program.span, { target: 'a file named in the awk program', dynamic: true });
  }
  for (const f of operands) if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value)) b.path('Read', f, 'operand');
  return { class: cls, skipOperands: true };
}

const TAR_EXEC = ['--to-command', '-I', '--use-compress-program', '--info-script', '-F', '--new-volume-script', '--checkpoint-action', '-H'];

function tar(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  // Old-style `tar xzf a.tgz`: a first word without a dash is a bundle of options.
  const args = b.cmd.args;
  const parsed = args[0] && /^[A-Za-z]+$/.test(args[0].value) && !args[0].dynamic
    ? parseArgv(p.spec, [{ ...args[0], value: '-' + args[0].value }, ...args.slice(1)])
    : p;
  const has = (...n: string[]) => hasOption(parsed, ...n);
  const archive = parsed.options.find((o) => ['-f', '--file'].includes(o.name))?.value ?? null;
  const dir = parsed.options.find((o) => ['-C', '--directory'].includes(o.name))?.value ?? null;
  let cls: CommandClass = 'read-only';
  if (has('-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate', '--delete')) {
    if (archive) b.path('Write', archive, 'option');
    // --remove-files deletes what it archived.
    const removes = has('--remove-files');
    for (const f of parsed.operands) b.path(removes ? 'Delete' : 'Read', f, 'operand');
    cls = 'mutating';
  } else if (has('-x', '--extract', '--get')) {
    if (archive) b.path('Read', archive, 'option');
    b.path('Write', dir ?? { value: '.', dynamic: false, glob: false, span: b.cmd.span }, 'option');
    cls = 'mutating';
  } else {
    if (archive) b.path('Read', archive, 'option');
  }
  if (parsed.options.some((o) => TAR_EXEC.includes(o.name) || o.name.startsWith('--checkpoint-action'))) {
    b.add('Exec', 'option', b.cmd.span, { program: 'tar' });
    cls = 'unknown';
  }
  return { class: cls, skipOperands: true };
}

function dd(b: OpBuilder): HandlerResult {
  let cls: CommandClass = 'read-only';
  for (const a of b.cmd.args) {
    const m = /^(if|of)=(.*)$/.exec(a.value);
    if (!m) continue;
    const target = { ...a, value: m[2] };
    if (m[1] === 'if') b.path('Read', target, 'operand');
    else {
      b.path('Write', target, 'operand');
      cls = 'mutating';
    }
  }
  return { class: cls, skipOperands: true };
}

/** curl `-d @file`, `-F name=@file`, `--data-binary @file` upload a local file. */
function curl(b: OpBuilder, p: ParsedArgv | null): void {
  if (!p) return;
  for (const o of p.options) {
    const v = o.value?.value ?? '';
    if (!o.value || !/^(-d|-F|--data.*|--form.*|--json)$/.test(o.name)) continue;
    const m = /^(?:[^=@<]*=)?[@<](.+?)(?:;.*)?$/.exec(v);
    if (m && m[1] !== '-') b.path('Read', { ...o.value, value: m[1] }, 'option');
  }
}

/** man -P CMD / -H[BROWSER] and less `+!cmd` run programs. */
/** wget without -O saves each URL under its last path segment (index.html for none), in -P DIR or the cwd. */
function wget(b: OpBuilder, p: ParsedArgv | null): void {
  if (!p || p.options.some((o) => ['-O', '--output-document', '--spider', '-i', '--input-file'].includes(o.name))) return;
  const dir = p.options.find((o) => ['-P', '--directory-prefix'].includes(o.name))?.value?.value ?? '.';
  for (const u of p.operands) {
    if (u.dynamic) continue;
    const path = /^[a-z]+:\/\/[^/]+(\/[^?#]*)?/i.exec(u.value)?.[1] ?? '';
    const name = path.split('/').pop() || 'index.html';
    b.path('Write', { ...u, value: `${dir.replace(/\/+$/, '')}/${name}` }, 'operand');
  }
}

function pager(b: OpBuilder): HandlerResult | void {
  const runs = b.cmd.args.find(
    (a) => (b.cmd.program === 'man' && /^(-P|-H|--pager|--html)/.test(a.value)) || (a.value.startsWith('+') && a.value.includes('!')),
  );
  if (runs) {
    b.add('Exec', 'option', runs.span, { program: runs.value });
    return { class: 'unknown' };
  }
}

/** grep PATTERN FILE…, but with -e/-f every operand is a file; -r with no file reads the cwd. */
function grep(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const patternGiven = p.options.some((o) => ['-e', '--regexp', '-f', '--file'].includes(o.name));
  const files = patternGiven ? p.operands : p.operands.slice(1);
  const recursive = p.options.some((o) => ['-r', '-R', '--recursive', '--dereference-recursive'].includes(o.name));
  // A recursive grep reads every file under its directories: a Read of the directory (so a rule on
  // ~/.ssh/** catches `grep -r x ~/.ssh`).
  for (const f of files) b.path('Read', f, 'operand');
  if (recursive && files.length === 0) b.path('Read', { value: '.', dynamic: false, glob: false, span: b.cmd.span }, 'operand');
  for (const o of p.options) if (['-f', '--file'].includes(o.name) && o.value) b.path('Read', o.value, 'option');
  return { class: 'read-only', skipOperands: true };
}

/** `[[ … ]]` only tests; its substitutions are walked on their own. */
const conditional: Handler = () => ({ class: 'read-only', skipOperands: true });

/** alias definitions are parsed and walked by the walker; `alias` alone lists them. */
const alias: Handler = () => ({ class: 'read-only', skipOperands: true });

const ASSIGN_ARG = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)?/;

/**
 * export / declare / typeset / local / readonly: each NAME=VALUE sets a variable (an Env
 * operation); with no names (or -p) they print variables, secrets included.
 */
const declaration: Handler = (b) => {
  const names = b.cmd.args.filter((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
  const printing = names.length === 0 && !b.cmd.args.some((a) => /^-[a-zA-Z]*f/.test(a.value));
  if (printing) b.add('Env', 'program', b.cmd.span, { target: '*', program: b.cmd.program ?? '' });
  for (const a of names) {
    const m = ASSIGN_ARG.exec(a.value);
    b.add('Env', 'operand', a.span, { target: m ? m[1] : a.value, dynamic: a.dynamic && !m });
  }
  return { class: 'read-only', skipOperands: true };
};

/** printenv / env / set with no arguments dump the environment. */
const envDump: Handler = (b) => {
  const operands = b.cmd.args.filter((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
  // `set -x`, `set -o pipefail` change options; only `set` alone prints every variable.
  const printing = b.cmd.program === 'set' ? b.cmd.args.length === 0 : operands.length === 0;
  if (printing) b.add('Env', 'program', b.cmd.span, { target: '*', program: b.cmd.program ?? '' });
  else if (b.cmd.program === 'printenv') for (const a of operands) b.add('Env', 'operand', a.span, { target: a.value, source: 'operand', program: 'printenv' });
  return { class: 'read-only', skipOperands: true };
};

/** `hash -p PATH NAME` points NAME at another program for the rest of the session. */
const hash: Handler = (b) => {
  if (b.cmd.args.some((a) => /^-[a-z]*p/.test(a.value))) {
    b.add('Env', 'option', b.cmd.span, { target: 'PATH', program: 'hash' });
    return { class: 'mutating', skipOperands: true };
  }
  return { class: 'read-only', skipOperands: true };
};

export const PROGRAM_HANDLERS: Record<string, Handler> = {
  grep,
  egrep: grep,
  fgrep: grep,
  '[[': conditional,
  alias,
  export: declaration,
  declare: declaration,
  typeset: declaration,
  local: declaration,
  readonly: declaration,
  printenv: envDump,
  set: envDump,
  hash,
  find,
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  tar,
  gtar: tar,
  dd,
  curl,
  wget,
  man: pager,
  less: pager,
  more: pager,
};
