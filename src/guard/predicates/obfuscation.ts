/** Named predicates for the obfuscation rules (rules/builtin/obfuscation.json). */
import picomatch from 'picomatch';
import type { Subject } from '../subject.js';
import { cheap, forPrograms, requires, type Predicate } from './programs.js';
import { interpreterFamily } from '../../programs/interpreters.js';
import { registry } from '../../programs/registry.js';
import { stdinExec } from '../compile-parts.js';

/** The program name is only known at run time (`$x`, `$(echo rm)`, `/???/r?`, `r$@m`). */
function dynamicName(s: Subject): boolean {
  return s.cmd.program === null && s.cmd.programRaw !== '';
}

/** Unquoted glob characters in a program word given as a path: `/???/r?`, `/usr/b?n/r[m]`. */
function globProgram(s: Subject): boolean {
  const raw = s.cmd.programRaw;
  // Necessary for the test at the end, and true of almost no command: checked first.
  if (!raw.includes('/') || !/[?*[]/.test(raw)) return false;
  // `find -exec {} …` / xargs: the walker stands for the found files with a `**` pattern; not a spelling.
  if (raw.includes('**') || s.cmd.context.via.some((v) => v.startsWith('find-exec') || v.startsWith('xargs'))) return false;
  return /[?*[]/.test(raw.replace(/'[^']*'|"[^"]*"/g, ''));
}

/** Programs that delete, overwrite, escalate or open a shell or a connection. */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const DANGEROUS = [
  'rm', 'rmdir', 'shred', 'dd', 'mkfs', 'mke2fs', 'wipefs', 'fdisk', 'sfdisk', 'parted', 'chmod', 'chown', 'mv', 'cp', 'ln', 'truncate',
  ...registry.tagged('shell'), 'busybox', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'curl', 'wget', 'python', 'python3', 'perl',
  'ruby', 'php', 'node', 'su', 'sudo', 'passwd', 'useradd', 'usermod', 'crontab', 'kill', 'pkill', 'killall', 'reboot', 'shutdown', 'halt', 'poweroff',
  'init', 'systemctl', 'mount', 'umount', 'insmod', 'modprobe', 'iptables', 'base64', 'xxd', 'openssl', 'ssh', 'scp',
];
// Laid out by hand: one group of related names a line.
// prettier-ignore
const DIRS = ['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];
/** Glob-spelled programs denied outright: shells, socket and download tools, privilege tools. (`/???/r? …` is judged by its target.) */
const GLOB_DENY = [
  ...registry.tagged('shell'),
  'busybox',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'curl',
  'wget',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'node',
  'su',
  'sudo',
  'passwd',
  'crontab',
  'base64',
  'xxd',
  'openssl',
];
const CANDIDATES = DIRS.flatMap((d) => GLOB_DENY.map((p) => `${d}/${p}`));

/** A glob-spelled program that can resolve to a destructive or shell-like binary (`/???/r?` → /bin/rm). */
function globResolvesDangerous(s: Subject): boolean {
  if (!globProgram(s)) return false;
  let m: (x: string) => boolean;
  try {
    m = picomatch(s.cmd.programRaw.replace(/\\/g, ''), { dot: false });
  } catch {
    return true;
  }
  return CANDIDATES.some((c) => m(c));
}

/** `${IFS}` / `$IFS` used as a separator inside the command word (`cat${IFS}/etc/passwd`). */
function ifsWord(s: Subject): boolean {
  return /\$\{?IFS\b/.test(s.cmd.programRaw);
}

const SPLITTERS = /['"\\$`]/;

/**
 * The program name is a static word split by quotes, backslashes or empty expansions between its
 * letters (`w'h'o'am'i`, `r""m`, `r\m`, `r$()m`, `r``m`, `r$@m`): no one writes names this way but
 * to slip past a filter that reads the raw text.
 */
function splitName(s: Subject): boolean {
  // The pattern below needs one of these between the letters.
  if (!SPLITTERS.test(s.cmd.programRaw)) return false;
  // Windows paths (`C:\Python\python.exe`, `'C:\Program Files\…'`) use backslashes as separators.
  if (/^['"]?[A-Za-z]:\\/.test(s.cmd.programRaw)) return false;
  return /[A-Za-z0-9_.-](?:'[^']*'|"[^"]*"|\\|\$\((?:…)?\)|\$@|``|\$\{[^}]*\}|\$\w+)+[A-Za-z0-9_.-]/.test(s.cmd.programRaw) && !/^\$/.test(s.cmd.programRaw);
}

/** The program word is (or contains) a variable or command substitution: `$CMD`, `$a$b`, `$(echo rm)`, `` `…` ``. */
function nameFromExpansion(s: Subject): boolean {
  return /\$|`/.test(s.cmd.programRaw) && !ifsWord(s);
}

const HIDING = /['"\\$`?*[]/;

/** Any of the ways above of hiding what the program is. */
function hiddenName(s: Subject): boolean {
  // Each way below needs a dynamic name or one of these characters in the word as written:
  // plain names (nearly every command) stop here.
  if (s.cmd.program !== null && !HIDING.test(s.cmd.programRaw)) return false;
  // A lone unknown variable (`$x -rf /`, `"$CMD" …`) may hold anything, a normal tool included: the core
  // already asks about it. A name assembled from pieces, a substitution or a glob is deliberate.
  const loneVariable = s.cmd.program === null && /^"?\$(\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)"?$/.test(s.cmd.programRaw);
  if (loneVariable) return false;
  return dynamicName(s) || globProgram(s) || ifsWord(s) || splitName(s) || nameFromExpansion(s);
}

/**
 * PowerShell started with an encoded command (`-enc`, `-e`, `-EncodedCommand` and every prefix
 * PowerShell accepts), or a script that decodes base64 and invokes it.
 */
function pwshEncoded(s: Subject): boolean {
  if (s.interpreter !== 'pwsh') return false;
  const args = s.cmd.args.map((a) => a.value);
  if (
    args.some((a) =>
      /^[-/](ec|e|en|enc|enco|encod|encode|encoded|encodedc|encodedco|encodedcom|encodedcomm|encodedcomma|encodedcomman|encodedcommand)$/i.test(a),
    )
  )
    return true;
  const text = args.join(' ');
  return /frombase64string/i.test(text) && /\b(iex|invoke-expression|invoke-command|start-process)\b/i.test(text);
}

/**
 * `history -c` followed by `history -w` (or `history -cw`): the cleared list is written over the
 * history file, erasing the record on disk. `history -c` alone only empties this shell's memory.
 */
function historyWipe(s: Subject): boolean {
  if (s.cmd.program !== 'history') return false;
  const flags = (x: Subject) =>
    x.cmd.args
      .map((a) => a.value)
      .filter((v) => /^-[a-z]+$/.test(v))
      .join('');
  if (!flags(s).includes('w')) return false;
  return flags(s).includes('c') || s.all.some((o) => o.cmd.id < s.cmd.id && o.cmd.program === 'history' && flags(o).includes('c'));
}

/** `\x72`, `\162`, `\u0072` escapes as echo -e / printf would print them. */
function unescape(t: string): string {
  return t
    .replace(/\\x([0-9a-fA-F]{1,2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\0?([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/**
 * The program name is printed by `echo`/`printf` of a literal in a substitution
 * (`$(echo -e "\x72\x6d") -rf ~`, `` `echo $'rm\x20-rf\x20~'` ``) and that literal, once
 * unescaped, starts with a destructive or shell-like program.
 */
function nameFromEchoDangerous(s: Subject): boolean {
  if (!dynamicName(s)) return false;
  return s.feeders().some((f) => {
    if ((f.cmd.program !== 'echo' && f.cmd.program !== 'printf') || f.cmd.args.some((a) => a.dynamic)) return false;
    // Only escaped spellings (`\x72`, `\162`, `$'…'`): `$(echo rm)` is odd but hides nothing.
    if (!/\\(x[0-9a-fA-F]|[0-7]{3}|u[0-9a-fA-F]{4})/.test(f.cmd.text)) return false;
    const words = f.cmd.args.map((a) => a.value).filter((v) => !/^-[neE]+$/.test(v));
    const first = unescape(words.join(' ')).trim().split(/\s+/)[0] ?? '';
    return DANGEROUS.includes(first.replace(/^.*\//, ''));
  });
}

/** The command's input is a literal written in the command: a here-string/heredoc, or `echo`/`printf` of static text piped in. */
function staticInput(s: Subject): boolean {
  if (s.cmd.redirects.some((r) => r.input !== null)) return true;
  const before = s.pipelineNeighbours('before');
  return before.length > 0 && before.every((b) => (b.cmd.program === 'echo' || b.cmd.program === 'printf') && !b.cmd.args.some((a) => a.dynamic));
}

const ODD_NAME = [{ features: ['odd-name'] }] as const;

/**
 * Text made by a program whose name is only known at run time (`$cmd`, `$(cat tool)`) is run as
 * a script: piped into a shell, or redirected into a file a later command runs. A decoder picked
 * through a variable (`cmd="base64 -d"; … | $cmd | sh`) hides what the shell will run.
 */
function runsRunTimeProgramOutput(s: Subject): boolean {
  if (s.cmd.context.pipeline !== null && stdinExec(s) && !s.hasFlag('-n')) {
    if (s.pipelineNeighbours('before').some(dynamicName)) return true;
  }
  const written = firstDynamicRedirects(s.all);
  for (const o of s.ops) {
    if (o.kind !== 'Exec' || o.path === undefined) continue;
    const first = written.get(o.path);
    if (first !== undefined && first < s.cmd.id) return true;
  }
  return false;
}

/**
 * Each path a command with a run-time name writes by a redirect, with the first such command's id.
 * Built once per command list: every command that runs a file asks it, and a script of thousands of
 * commands made this scan quadratic.
 */
const dynamicRedirects = new WeakMap<readonly Subject[], Map<string, number>>();
function firstDynamicRedirects(all: readonly Subject[]): Map<string, number> {
  let map = dynamicRedirects.get(all);
  if (map) return map;
  map = new Map();
  for (const o of all) {
    if (!dynamicName(o)) continue;
    for (const x of o.ops) {
      if (x.kind !== 'Write' || x.source !== 'redirect' || x.path === undefined) continue;
      const seen = map.get(x.path);
      if (seen === undefined || o.cmd.id < seen) map.set(x.path, o.cmd.id);
    }
  }
  dynamicRedirects.set(all, map);
  return map;
}

export const obfuscationPredicates: Record<string, Predicate> = {
  // Each way of hiding a name needs a dynamic program or one of HIDING's characters in its word.
  'obfuscation/dynamic-name': requires(ODD_NAME, cheap(dynamicName)),
  'obfuscation/glob-program': requires(ODD_NAME, cheap(globProgram)),
  'obfuscation/glob-program-dangerous': requires(ODD_NAME, globResolvesDangerous),
  'obfuscation/ifs-word': requires(ODD_NAME, cheap(ifsWord)),
  'obfuscation/split-name': requires(ODD_NAME, cheap(splitName)),
  'obfuscation/hidden-name': requires(ODD_NAME, cheap(hiddenName)),
  'obfuscation/pwsh-encoded': requires([{ program: (p) => interpreterFamily(p) === 'pwsh' }], pwshEncoded),
  'obfuscation/history-wipe': forPrograms(['history'], historyWipe),
  'obfuscation/name-from-echo-dangerous': requires([...ODD_NAME, { features: ['feeders'] }], nameFromEchoDangerous),
  'obfuscation/static-input': staticInput,
  // Piped into a shell (a pipeline), or a file run (an Exec operation).
  'obfuscation/runs-run-time-program-output': requires([{ features: ['execs-stdin', 'Exec'] }], runsRunTimeProgramOutput),
};
