/**
 * Programs whose effect is not in their argv shape alone: the program text of sed and awk, find's
 * expression language, tar's modes, dd's `of=`, curl's `@file` uploads, pagers that run commands.
 * Each handler adds operations and may change the class; `skipOperands` tells the caller it has
 * already handled the operands.
 */
import type { Arg } from '../walk/types.js';
import { assignedNames } from '../walk/assigned-names.js';
import type { CommandClass } from '../programs/spec-types.js';
import type { OpBuilder } from './operations.js';
import { effectiveClass, hasOption, parseArgv, type ParsedArgv } from './parse-argv.js';
import { resolvePath } from '../paths/resolve.js';
import { sedScriptEffects } from './sed-script.js';
import type { Span } from '../syntax/ast.js';

export interface HandlerResult {
  class?: CommandClass;
  /** The handler made the operations for every operand itself. */
  skipOperands?: boolean;
  /** The handler made the operations for every option value itself (else the spec's roles apply). */
  skipOptions?: boolean;
  /** The handler reported the options it does not know itself (its own option language). */
  optionsChecked?: boolean;
  /** The handler read the argv differently (tar's old-style bundle): roles and checks use this. */
  parsed?: ParsedArgv;
}

export type Handler = (b: OpBuilder, parsed: ParsedArgv | null) => HandlerResult | void;

/**
 * find's expression language (GNU findutils 4.9 `man find`, plus the BSD/macOS primaries), by
 * how many words each primary takes. A primary that is not here is not taken as harmless.
 */
const FIND_NO_ARG = new Set([
  '-daystart', '-depth', '-d', '-follow', '-ignore_readdir_race', '-noignore_readdir_race', '-mount', '-noleaf', '-nowarn', '-warn',
  '-xdev', '-x', '-help', '--help', '-version', '--version', '-empty', '-executable', '-false', '-nogroup', '-nouser', '-readable', '-true',
  '-writable', '-ls', '-print', '-print0', '-prune', '-quit', '-a', '-and', '-o', '-or', '-not', '!', '(', ')', ',',
  // BSD/macOS
  '-acl', '-sparse', '-xattr',
]);
const FIND_VALUE = new Set([
  '-maxdepth', '-mindepth', '-regextype', '-amin', '-atime', '-cmin', '-context', '-ctime', '-fstype', '-gid', '-group', '-ilname', '-iname',
  '-inum', '-ipath', '-iregex', '-iwholename', '-links', '-lname', '-mmin', '-mtime', '-name', '-path', '-perm', '-regex', '-size', '-type',
  '-uid', '-used', '-user', '-wholename', '-xtype', '-printf',
  // BSD/macOS
  '-Bmin', '-Btime', '-flags', '-xattrname',
]);
const FIND_READ = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-Bnewer', '-mnewer']);
const FIND_WRITE = new Set(['-fprint', '-fprint0', '-fls', '-fprintf']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Options before the starting points: `-H -L -P`, `-D debugopts`, `-Olevel`; BSD `-E -s -X -x`, `-f PATH`. */
function findLeadingOptions(args: Arg[]): { next: number; roots: Arg[] } {
  const roots: Arg[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (args[i].dynamic) break;
    if (['-H', '-L', '-P', '-E', '-s', '-X'].includes(v) || /^-O[0-9]*$/.test(v)) continue;
    if (v === '-D') {
      i++;
      continue;
    }
    if (v === '--') {
      i++; // ends these options; the starting points follow
      break;
    }
    if (v === '-f' && args[i + 1]) {
      roots.push(args[++i]); // BSD find -f PATH: a starting point that may begin with a dash
      continue;
    }
    break;
  }
  return { next: i, roots };
}

function find(b: OpBuilder): HandlerResult {
  const args = b.cmd.args;
  let cls: CommandClass = 'read-only';
  const lead = findLeadingOptions(args);
  const roots: Arg[] = lead.roots;
  let i = lead.next;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (!args[i].dynamic && (v.startsWith('-') || v === '(' || v === '!' || v === ',')) break;
    roots.push(args[i]);
  }
  const rootArgs = roots.length > 0 ? roots : [{ value: '.', dynamic: false, glob: false, span: b.cmd.span }];
  for (const r of rootArgs) b.path('List', r, 'operand');
  for (; i < args.length; i++) {
    const a = args[i];
    const v = a.value;
    if (a.dynamic) {
      // `find . $x`: the word may be any primary (`-delete`, `-fprint F`).
      if (/^[-$`!(]/.test(v)) b.unknownOption(v, a, 'find', null, true);
      continue;
    }
    if (FIND_READ.has(v) || (/^-newer[aBcm][aBcm]$/.test(v) && args[i + 1])) {
      if (args[i + 1]) b.path('Read', args[++i], 'option');
    } else if (/^-newer[aBcmt]t$/.test(v)) i++; // compared with a time given as text
    else if (v === '-files0-from') {
      // The starting points are read from a file: what is walked is not known here.
      if (args[i + 1]) b.path('Read', args[++i], 'option');
      b.add('List', 'option', a.span, { target: 'starting points listed in a file', dynamic: true });
    } else if (FIND_VALUE.has(v)) i++;
    else if (FIND_WRITE.has(v)) {
      b.namedOption(v, a, `find ${v} writes a file`);
      if (args[i + 1]) b.path('Write', args[++i], 'option');
      if (v === '-fprintf') i++;
      cls = 'mutating';
    } else if (v === '-delete') {
      b.namedOption(v, a, 'find -delete deletes what it matches');
      for (const r of rootArgs) b.path('Delete', { ...r, value: `${r.value.replace(/\/+$/, '')}/**`, glob: true }, 'option');
      cls = 'mutating';
    } else if (FIND_EXEC.has(v)) {
      b.namedOption(v, a, `find ${v} runs a command on what it matches`);
      // The executed command is a sub-command of its own (walk/run-argv.ts).
      while (i < args.length && args[i].value !== ';' && args[i].value !== '+') i++;
    } else if (!FIND_NO_ARG.has(v) && (v.startsWith('-') || v.startsWith('+'))) {
      b.unknownOption(v, a, 'find', 'GNU findutils 4.9 (man find) and the BSD primaries');
    }
    // Anything else is a word find itself rejects (a path after the expression).
  }
  return { class: cls, skipOperands: true, skipOptions: true, optionsChecked: true };
}

export { sedScriptEffects };

/** A script named by `-f FILE` (sed, awk): its text when it can be read, else null. */
function scriptFileText(b: OpBuilder, file: Arg): string | null {
  if (file.fileText !== undefined) return file.fileText; // `-f <(echo …)`
  if (file.dynamic || file.glob) return null;
  if (file.value === '-' || /^\/dev\/(stdin|fd\/0)$/.test(file.value)) return b.cmd.stdinText;
  if (b.cmd.cwd === null && !file.value.startsWith('/')) return null;
  return b.env.readScript(resolvePath(file.value, b.cmd.cwd ?? '/'));
}

/**
 * sed SCRIPT FILE…, or `-e SCRIPT`/`-f SCRIPTFILE` (then every operand is a file). The script —
 * inline, or read from the file like `source` reads one — is analysed for `e`, `w`, `r`; a script
 * that cannot be read or is only known at run time could do anything.
 */
function sed(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const files = [...p.operands];
  const pieces = p.options.filter((o) => ['-e', '--expression', '-f', '--file'].includes(o.name) && o.value);
  const texts: (string | null)[] = [];
  // A script only known at run time, or a script file that cannot be read.
  let unread = false;
  if (pieces.length === 0) {
    const script = files.shift();
    if (script) {
      if (script.dynamic) unread = true;
      texts.push(script.value);
    }
  }
  for (const o of pieces) {
    const v = o.value!;
    if (o.name === '-e' || o.name === '--expression') {
      if (v.dynamic) unread = true;
      texts.push(v.value);
    } else {
      const text = scriptFileText(b, v);
      if (text === null) unread = true;
      texts.push(text);
    }
  }
  const inPlace = p.options.some((o) => o.name === '-i' || o.name === '--in-place' || o.name === '-I');
  for (const f of files) b.path(inPlace ? 'Write' : 'Read', f, 'operand');
  let cls: CommandClass = inPlace ? 'mutating' : 'read-only';
  // GNU sed joins every -e and -f piece with newlines into one script.
  const fx = sedScriptEffects(texts.map((t) => t ?? '').join('\n'));
  // BSD sed's -i takes the next word as the backup suffix (`sed -i '' 's/a/b/w x' f`): there the
  // script is the word after it. Both readings are analysed.
  const bare = p.options.some((o) => (o.name === '-i' || o.name === '-I') && !o.value);
  if (bare && pieces.length === 0 && /^(\.[\w.~-]*)?$/.test(texts[0] ?? 'x') && files[0]) {
    if (files[0].dynamic) unread = true;
    const bsd = sedScriptEffects(files[0].value);
    fx.exec ||= bsd.exec;
    fx.writes.push(...bsd.writes);
    fx.reads.push(...bsd.reads);
    fx.unknown ??= bsd.unknown;
  }
  // --sandbox rejects e, r and w: such a script fails before it runs.
  const sandbox = hasOption(p, '--sandbox');
  if (unread || fx.unknown !== null) {
    // Not read (dynamic, unreadable, or not GNU sed's grammar): it may run or write anything
    // (unknown-effect); under --sandbox, e/r/w are refused whatever it holds.
    if (!sandbox) cls = 'unknown';
  } else if (!sandbox) {
    if (fx.exec) {
      b.add('Exec', 'operand', b.cmd.span, { program: 'sh', target: texts.join('\n') });
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

/** -W words of mawk 1.3.4 and gawk 5.2 that only change how the program is read or printed. */
const AWK_W_HARMLESS = /^(version|dump|help|usage|interactive|posix_space|random=\d+|sprintf=\d+|posix|traditional|compat|lint(=\w+)?|lint-old|re-interval|characters-as-bytes|copyright|non-decimal-data|optimize|no-optimize|use-lc-numeric|bignum|csv|gen-pot|trace)$/;

/**
 * awk PROGRAM FILE…, or `-f PROGFILE`/`-E PROGFILE`/`-e TEXT` (gawk; then every operand is a
 * file). Program files are read and analysed like inline programs; `-i`/`-l` (gawk libraries and
 * extensions) keep their spec roles (exec).
 */
function awk(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const operands = [...p.operands];
  const sources = p.options.filter((o) => ['-f', '--file', '-E', '--exec', '-e', '--source'].includes(o.name) && o.value);
  const programs: Arg[] = [];
  let unreadable: Arg | null = null;
  if (sources.length === 0) {
    const program = operands.shift();
    if (program) programs.push(program);
  }
  for (const o of sources) {
    if (o.name === '-e' || o.name === '--source') {
      programs.push(o.value!);
      continue;
    }
    const text = scriptFileText(b, o.value!);
    if (text === null) unreadable = o.value!;
    else programs.push({ ...o.value!, value: text, dynamic: false });
  }
  // gawk's -d/-o/-p write files (awkvars.out, awkprof.out by default): the option classes count.
  let cls: CommandClass = effectiveClass(p);
  // -W OPTION: mawk's and gawk's spelling of implementation options. `-W exec FILE` (mawk) reads
  // the program from FILE; an option not known here may do anything.
  let sandbox = hasOption(p, '--sandbox', '-S');
  for (const o of p.options) {
    if (o.name !== '-W' || !o.value) continue;
    const w = o.value.value;
    if (o.value.dynamic) cls = 'unknown';
    else if (/^e(x(e(c)?)?)?$/.test(w) && sources.length === 0 && programs.length > 0) {
      // The word taken as the program was the program file.
      const file = programs.shift()!;
      const text = scriptFileText(b, file);
      if (text === null) unreadable = file;
      else programs.push({ ...file, value: text, dynamic: false });
    } else if (w === 'sandbox') sandbox = true;
    else if (!AWK_W_HARMLESS.test(w)) b.unknownOption(`-W ${w}`, o.value, 'awk');
  }
  if (unreadable) cls = 'unknown';
  for (const program of programs) {
    const fx = awkProgramEffects(program.value);
    if (program.dynamic || (fx.exec && !sandbox)) {
      b.add('Exec', 'operand', program.span, { program: 'sh', target: program.value, dynamic: program.dynamic });
      cls = 'unknown';
    } else if (fx.writes && !sandbox) {
      b.add('Write', 'operand', program.span, { target: program.value, dynamic: true });
      if (cls !== 'unknown') cls = 'mutating';
    }
    if (fx.reads && !sandbox) b.add('Read', 'operand', program.span, { target: 'a file named in the awk program', dynamic: true });
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
    // -P keeps the archive's absolute paths and `..`: members may be written anywhere.
    if (has('-P', '--absolute-names')) b.add('Write', 'option', b.cmd.span, { target: 'absolute paths named in the archive', dynamic: true });
    cls = 'mutating';
  } else {
    if (archive) b.path('Read', archive, 'option');
  }
  if (parsed.options.some((o) => TAR_EXEC.includes(o.name) || o.name.startsWith('--checkpoint-action'))) {
    b.add('Exec', 'option', b.cmd.span, { program: 'tar' });
    cls = 'unknown';
  }
  // The archive (-f) and directory (-C) depend on the mode and are done above; other option
  // values (-T, -X, -g…) keep their spec roles.
  return { class: effectiveClass(parsed) === 'unknown' ? 'unknown' : cls, skipOperands: true, parsed };
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

/**
 * curl options whose value names a local file with `@FILE` (or `<FILE` for a form field's
 * content): -d/--data/--data-binary/--data-urlencode/--json/-F/--form/--url-query/--variable,
 * and headers from a file (-H @FILE). `--data-raw` and `--form-string` take text literally.
 * `@-` and `<-` are stdin.
 */
const CURL_AT_FILE: Record<string, RegExp> = {
  '-d': /^@(.+)$/,
  '--data': /^@(.+)$/,
  '--data-ascii': /^@(.+)$/,
  '--data-binary': /^@(.+)$/,
  '--json': /^@(.+)$/,
  '-H': /^@(.+)$/,
  '--header': /^@(.+)$/,
  '--proxy-header': /^@(.+)$/,
  // [name]@file reads file (content URL-encoded); name=content and =content are text.
  '--data-urlencode': /^[^=]*?@(.+)$/,
  '--url-query': /^[^=+]*?@(.+)$/,
  '--variable': /^%?[^=@]*@(.+)$/,
  // name=@file uploads the file; name=<file sends its content; `;type=…` may follow.
  '-F': /^[^=]*=[@<]("[^"]*"|[^;]*)/,
  '--form': /^[^=]*=[@<]("[^"]*"|[^;]*)/,
};

function curl(b: OpBuilder, p: ParsedArgv | null): void {
  if (!p) return;
  for (const o of p.options) {
    // -b NAME=VALUE sends a cookie; -b FILE (no `=`) reads cookies from FILE.
    if ((o.name === '-b' || o.name === '--cookie') && o.value && !o.value.value.includes('=')) b.path('Read', o.value, 'option');
    const re = o.value ? CURL_AT_FILE[o.name] : undefined;
    if (!re || !o.value) continue;
    const m = re.exec(o.value.value);
    if (!m) continue;
    const file = m[1].replace(/^"(.*)"$/, '$1');
    if (file === '-' || file === '') continue; // stdin
    b.path('Read', { ...o.value, value: file }, 'option');
  }
}

/**
 * HTTPie request items (`http`, `https`, `xh`: `[METHOD] URL ITEM…`) that read a local file:
 * `field=@FILE` (its text), `field:=@FILE` (its JSON), `field@FILE` (a multipart upload),
 * `Header:@FILE`, and `@FILE` as the body. A backslash escapes a separator (`a\@b`).
 */
const HTTPIE_SEPARATORS = [':=@', '=@', ':@', '==', ':=', '=', ':', '@'];

export function httpieItemFile(item: string): string | null {
  for (let i = 0; i < item.length; i++) {
    const c = item[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== ':' && c !== '=' && c !== '@') continue;
    const sep = HTTPIE_SEPARATORS.find((x) => item.startsWith(x, i))!;
    return sep.includes('@') ? item.slice(i + sep.length) : null;
  }
  return null;
}

function httpie(b: OpBuilder, p: ParsedArgv | null): void {
  if (!p) return;
  const first = p.operands[0];
  const items = p.operands.slice(first && !first.dynamic && /^[A-Za-z]+$/.test(first.value) ? 2 : 1);
  for (const a of items) {
    const file = a.dynamic ? null : httpieItemFile(a.value);
    // HTTPie expands `~` in these paths itself (the shell does not, inside `key@~/…`).
    if (file) b.path('Read', { ...a, value: file.startsWith('~/') ? `${b.env.home.replace(/\/+$/, '')}/${file.slice(2)}` : file }, 'operand');
  }
}

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

/**
 * A pager's initial commands (`less +G`, `more +/re`): a line number, a search or a movement is
 * harmless; anything else may be a shell escape (`!cmd`), a pipe (`|`), a log file (`s`) or an
 * editor (`v`), and is not taken as harmless.
 */
const PAGER_START = /^\+(?:[0-9]+[gGjpP%]?|[FGgRrqQ]|\/.*|\?.*|:n|:p|[0-9]*[eEjkyYdDuUfbwz]?)$/;

/** man -P/--pager/-H/--html/-C run programs (spec roles); less and more run what `+cmd` says. */
function pager(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  let cls: CommandClass | undefined;
  for (const a of b.cmd.args) {
    if (a.dynamic || !a.value.startsWith('+') || b.cmd.program === 'man') continue;
    if (!PAGER_START.test(a.value)) b.unknownOption(a.value, a, b.cmd.program ?? 'less');
  }
  if (p && b.cmd.program === 'man') {
    // -H/--html with no browser named runs $BROWSER.
    const html = p.options.find((o) => (o.name === '-H' || o.name === '--html') && !o.value);
    if (html) {
      b.add('Exec', 'option', html.arg.span, { program: 'the browser named by $BROWSER' });
      cls = 'unknown';
    }
  }
  if (p && b.cmd.program !== 'man') {
    // `+` words are less's initial commands, not files.
    const files = p.operands.filter((a) => a.dynamic || !a.value.startsWith('+'));
    for (const f of files) b.path('Read', f, 'operand');
    return { class: cls ?? effectiveClass(p), skipOperands: true };
  }
  if (cls) return { class: cls };
}

/**
 * date [+FORMAT] prints; any other operand is a date to set the clock to (GNU
 * `MMDDhhmm[[CC]YY][.ss]`, BSD `[[[mm]dd]HH]MM[[cc]yy][.ss]`) unless BSD's -j says not to.
 */
function date(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p || hasOption(p, '-j')) return;
  const setting = p.operands.find((a) => a.dynamic || !a.value.startsWith('+'));
  if (setting) {
    b.add('System', 'operand', setting.span, { program: 'date', target: setting.value, dynamic: setting.dynamic });
    return { class: 'mutating' };
  }
}

/** sysctl NAME=VALUE writes a kernel parameter, with or without -w. */
function sysctl(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const write = p.operands.find((a) => a.dynamic || a.value.includes('='));
  if (write && !hasOption(p, '-p', '-f', '--load')) {
    b.add('System', 'operand', write.span, { program: 'sysctl', target: write.value, dynamic: write.dynamic });
    return { class: 'mutating' };
  }
}

/** ifconfig [IFACE] shows; IFACE followed by anything (`up`, an address, `mtu 9000`) configures it. */
function ifconfig(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  if (p.operands.length >= 2 || p.operands.some((a) => a.dynamic)) {
    b.add('System', 'operand', p.operands[1]?.span ?? b.cmd.span, { program: 'ifconfig', target: p.operands.map((a) => a.value).join(' ') });
    return { class: 'mutating' };
  }
}

/**
 * procps ps takes BSD options as words without a dash (`ps aux`, `ps e`); a value follows `o`,
 * `O`, `p`, `q`, `t`, `U`, `k` (procps-ng 4.0 `ps --help all`). `e` (and macOS `-E`) prints each
 * process's environment after its command: the user's processes' secrets.
 */
const PS_BSD_FLAGS = new Set([...'arTxfjlZsuvXHmceLnSVwgh']);
const PS_BSD_VALUE = new Set([...'oOpqtUk']);

function ps(b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  let env: Span | null = p.options.find((o) => o.name === '-E')?.arg.span ?? null;
  const ops = p.operands;
  for (let i = 0; i < ops.length; i++) {
    const a = ops[i];
    if (a.dynamic) {
      b.unknownOption(a.value, a, 'ps', null, true);
      continue;
    }
    if (/^[0-9,]+$/.test(a.value)) continue; // a list of pids
    if (!/^[A-Za-z]+$/.test(a.value)) {
      b.unknownOption(a.value, a, 'ps');
      continue;
    }
    for (let j = 0; j < a.value.length; j++) {
      const ch = a.value[j];
      if (ch === 'e') env ??= a.span;
      if (PS_BSD_VALUE.has(ch)) {
        if (j === a.value.length - 1) i++; // the value is the next word
        break;
      }
      if (!PS_BSD_FLAGS.has(ch)) {
        b.unknownOption(ch, a, 'ps');
        break;
      }
    }
  }
  if (env) b.add('Env', 'option', env, { target: '*', program: 'ps' });
  return { class: 'read-only', skipOperands: true };
}

/** rpm's install, upgrade and erase modes; with -q/-V (query, verify) `-i` means --info. */
const RPM_CHANGES = ['--install', '-U', '--upgrade', '-F', '--freshen', '-e', '--erase', '--reinstall', '--import', '--rebuilddb', '--initdb', '--setperms', '--setugids', '--restore', '--delete'];

function rpm(_b: OpBuilder, p: ParsedArgv | null): HandlerResult | void {
  if (!p || !hasOption(p, '-q', '--query', '-V', '--verify') || p.options.some((o) => RPM_CHANGES.includes(o.name))) return;
  const query = { ...p, options: p.options.filter((o) => o.name !== '-i') };
  return { class: effectiveClass(query), parsed: query };
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

/** printenv with no names, and `set` with no arguments at all, dump the environment (`set -e` does not). */
const envDump: Handler = (b) => {
  const operands = b.cmd.args.filter((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
  const dumps = b.cmd.program === 'set' ? b.cmd.args.length === 0 : operands.length === 0;
  if (dumps) b.add('Env', 'program', b.cmd.span, { target: '*', program: b.cmd.program ?? '' });
  else if (b.cmd.program === 'printenv') for (const a of operands) b.add('Env', 'operand', a.span, { target: a.value, source: 'operand', program: 'printenv' });
  return { class: 'read-only', skipOperands: true };
};

/**
 * Builtins that assign the variables they name (`read`, `mapfile`, `getopts`, `printf -v`,
 * `wait -p`, `let`; walk/assigned-names.ts reads their arguments): each name is an Env
 * operation, so `read PATH` or `printf -v LD_PRELOAD …` is seen as what it is.
 */
const assignsNames: Handler = (b) => {
  const program = b.cmd.program ?? '';
  for (const n of assignedNames(program, b.cmd.args).names) b.add('Env', 'operand', n.span, { target: n.value, program });
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
  http: httpie,
  https: httpie,
  xh: httpie,
  xhs: httpie,
  wget,
  man: pager,
  less: pager,
  more: pager,
  date,
  gdate: date,
  sysctl,
  ifconfig,
  ps,
  rpm,
  read: assignsNames,
  mapfile: assignsNames,
  readarray: assignsNames,
  getopts: assignsNames,
  printf: assignsNames,
  wait: assignsNames,
  let: assignsNames,
};
