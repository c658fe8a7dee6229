/**
 * Links and directories the command line makes before later commands use them, as facts the
 * walker records: `ln -s ~ h; rm -rf h/` deletes home, yet `h` is not on disk while the line is
 * analysed. For every command it emits, the walker records what `ln`, `cp -s`/`-l`/`-a`, `mv`,
 * `link`, `mkdir` and `install -d` make (and what `rm` removes), with the paths as written, the
 * directory they were written in and whether the command surely ran before what follows it.
 *
 * Resolving those paths and deciding which entries a later command can meet is the paths layer's
 * job (paths/line-links.ts): it needs the disk and the path classifier, which come after the walk.
 */
import type { Arg, WalkedCommand } from './types.js';

/** A word of the command: its value, or null when it is only known at run time. */
export type Word = string | null;

/** What one command makes or removes, with paths as written (relative to the command's cwd). */
export type LineEvent =
  | {
      type: 'link';
      kind: 'symlink' | 'hardlink' | 'mirror';
      /** What each new entry points to (as given), and where it goes. */
      sources: Word[];
      dest: Word;
      /** `always`: into the directory `dest`; `never`: `dest` is the new name; `auto`: into it if it is a directory. */
      into: 'always' | 'never' | 'auto';
      /** `-n`: a `dest` that is a symlink to a directory is replaced, not entered. */
      noDeref: boolean;
      /** `ln -r`, hard links, mirrors: sources are paths from the cwd, not link text. */
      fromCwd: boolean;
      /** `-f`: an existing `dest` is replaced (else the command fails on it). */
      force: boolean;
      /** Options not understood: what was made cannot be known. */
      unknown: boolean;
    }
  | { type: 'copy-links'; sources: Word[]; dest: Word; into: 'always' | 'never' | 'auto'; move: boolean }
  | { type: 'dirs'; paths: Word[]; parents: boolean }
  | { type: 'remove'; paths: Word[] };

/** An event with the command that made it and where it stood on the line. */
export interface RecordedEvent {
  event: LineEvent;
  maker: WalkedCommand;
  cwd: string | null;
  /** Straight-line code: it surely ran before what follows it. */
  straight: boolean;
}

/** The events of one command line, in the order the walker met their commands. */
export class LineLinkEvents {
  private readonly recorded: RecordedEvent[] = [];

  get events(): readonly RecordedEvent[] {
    return this.recorded;
  }

  /** Record what an argv makes; called by the walker for every command it emits. */
  record(program: string, args: Arg[], walked: WalkedCommand, cwd: string | null, certain: boolean): void {
    if (walked.context.remote !== null) return; // another host's filesystem
    const event = parseEvent(program, args);
    if (event === null) return;
    const c = walked.context;
    const straight =
      certain &&
      !c.conditional &&
      !c.background &&
      !c.loop &&
      c.functionName === null &&
      c.pipeline === null &&
      (c.substitution === null || c.substitution === 'command');
    this.recorded.push({ event, maker: walked, cwd, straight });
  }
}

// ---- argv parsing ----------------------------------------------------------------------------

interface OptionTable {
  /** Short options without a value. */
  flags: string;
  /** Short options that take a value. */
  valued: string;
  /** Long options: name → its short equivalent or itself; `=` suffix: takes a value. */
  long: Record<string, string>;
}

interface Parsed {
  flags: Set<string>;
  values: Map<string, Word>;
  operands: Word[];
  unknown: boolean;
}

/** GNU-style options anywhere among the operands, `--` ending them, long names abbreviated. */
function parseOptions(args: Arg[], table: OptionTable): Parsed {
  const flags = new Set<string>();
  const values = new Map<string, Word>();
  const operands: Word[] = [];
  let unknown = false;
  const longNames = Object.keys(table.long);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.dynamic || a.glob ? null : a.value;
    if (v === null) {
      // An unknown word may be an option as well as an operand.
      if (a.value.startsWith('-') || a.dynamic) unknown ||= a.value.startsWith('-');
      operands.push(null);
      continue;
    }
    if (v === '--') {
      for (const b of args.slice(i + 1)) operands.push(b.dynamic || b.glob ? null : b.value);
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const written = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const exact = longNames.find((n) => n.replace(/=$/, '') === written);
      const matches = exact ? [exact] : longNames.filter((n) => n.startsWith(written));
      if (matches.length !== 1) {
        unknown = true;
        continue;
      }
      const name = matches[0];
      const key = table.long[name];
      if (!name.endsWith('=')) flags.add(key);
      else if (eq >= 0) values.set(key, v.slice(eq + 1));
      else values.set(key, i + 1 < args.length ? wordOf(args[++i]) : null);
      continue;
    }
    if (!v.startsWith('-') || v === '-') {
      operands.push(v);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const ch = v[j];
      if (table.valued.includes(ch)) {
        const rest = v.slice(j + 1);
        if (rest !== '') values.set(ch, rest);
        else values.set(ch, i + 1 < args.length ? wordOf(args[++i]) : null);
        break;
      }
      if (table.flags.includes(ch)) flags.add(ch);
      else unknown = true;
    }
  }
  return { flags, values, operands, unknown };
}

function wordOf(a: Arg): Word {
  return a.dynamic || a.glob ? null : a.value;
}

// Laid out by hand: one group of related names a line.
// prettier-ignore
const LN: OptionTable = {
  flags: 'bdFfiLnPrsTv',
  valued: 'St',
  long: {
    'backup': 'b', 'backup=': 'b', 'directory': 'd', 'force': 'f', 'interactive': 'i', 'logical': 'L', 'no-dereference': 'n',
    'physical': 'P', 'relative': 'r', 'symbolic': 's', 'suffix=': 'S', 'target-directory=': 't', 'no-target-directory': 'T',
    'verbose': 'v', 'help': 'help', 'version': 'version',
  },
};

// Laid out by hand: one group of related names a line.
// prettier-ignore
const CP: OptionTable = {
  flags: 'abdfHilLnPpRrsTuvxZ',
  valued: 'St',
  long: {
    'archive': 'a', 'attributes-only': 'attributes-only', 'backup': 'b', 'backup=': 'b', 'copy-contents': 'copy-contents', 'debug': 'debug',
    'force': 'f', 'interactive': 'i', 'dereference': 'L', 'link': 'l', 'no-clobber': 'n', 'no-dereference': 'P', 'preserve': 'preserve',
    'preserve=': 'preserve', 'no-preserve=': 'no-preserve', 'parents': 'parents', 'recursive': 'R', 'reflink': 'reflink', 'reflink=': 'reflink',
    'remove-destination': 'remove-destination', 'sparse=': 'sparse', 'strip-trailing-slashes': 'strip-trailing-slashes', 'symbolic-link': 's',
    'suffix=': 'S', 'target-directory=': 't', 'no-target-directory': 'T', 'update': 'u', 'update=': 'u', 'verbose': 'v', 'one-file-system': 'x',
    'context': 'Z', 'context=': 'Z', 'keep-directory-symlink': 'keep-directory-symlink', 'help': 'help', 'version': 'version',
  },
};

// Laid out by hand: one group of related names a line.
// prettier-ignore
const MV: OptionTable = {
  flags: 'bfinTuvZ',
  valued: 'St',
  long: {
    'backup': 'b', 'backup=': 'b', 'force': 'f', 'interactive': 'i', 'no-clobber': 'n', 'no-copy': 'no-copy', 'strip-trailing-slashes': 'strip-trailing-slashes',
    'suffix=': 'S', 'target-directory=': 't', 'no-target-directory': 'T', 'update': 'u', 'update=': 'u', 'verbose': 'v', 'exchange': 'exchange',
    'context': 'Z', 'help': 'help', 'version': 'version',
  },
};

const MKDIR: OptionTable = {
  flags: 'pvZ',
  valued: 'm',
  long: { 'mode=': 'm', parents: 'p', verbose: 'v', context: 'Z', 'context=': 'Z', help: 'help', version: 'version' },
};
// Laid out by hand: one group of related names a line.
// prettier-ignore
const RM: OptionTable = {
  flags: 'dfIirRv',
  valued: '',
  long: { 'dir': 'd', 'force': 'f', 'interactive': 'i', 'interactive=': 'i', 'one-file-system': 'x', 'no-preserve-root': 'n', 'preserve-root': 'p', 'preserve-root=': 'p', 'recursive': 'r', 'verbose': 'v', 'help': 'help', 'version': 'version' },
};

/** Destination and sources for `ln`/`cp`/`mv`-style argv: `-t DIR`, `-T`, or the last operand. */
function layout(p: Parsed): { sources: Word[]; dest: Word; into: 'always' | 'never' | 'auto' } | null {
  const t = p.values.get('t');
  if (t !== undefined) return { sources: p.operands, dest: t, into: 'always' };
  if (p.operands.length < 2) return null;
  const dest = p.operands[p.operands.length - 1];
  const sources = p.operands.slice(0, -1);
  if (p.flags.has('T')) return { sources, dest, into: 'never' };
  return { sources, dest, into: sources.length > 1 ? 'always' : 'auto' };
}

function parseEvent(program: string, args: Arg[]): LineEvent | null {
  switch (program) {
    case 'ln': {
      const p = parseOptions(args, LN);
      if (p.flags.has('help') || p.flags.has('version')) return null;
      // One operand: a link named like the target, in the current directory.
      const l = p.operands.length === 1 && !p.values.has('t') ? { sources: p.operands, dest: '.', into: 'always' as const } : layout(p);
      if (l === null) return null;
      const symbolic = p.flags.has('s');
      return {
        type: 'link',
        kind: symbolic ? 'symlink' : 'hardlink',
        ...l,
        noDeref: p.flags.has('n'),
        fromCwd: !symbolic || p.flags.has('r'),
        force: p.flags.has('f'),
        unknown: p.unknown,
      };
    }
    case 'link': {
      const ops = args.map(wordOf);
      if (ops.length !== 2) return null;
      return { type: 'link', kind: 'hardlink', sources: [ops[0]], dest: ops[1], into: 'never', noDeref: false, fromCwd: true, force: false, unknown: false };
    }
    case 'cp': {
      const p = parseOptions(args, CP);
      const l = layout(p);
      if (l === null || p.flags.has('parents')) return null;
      const recursive = p.flags.has('R') || p.flags.has('r') || p.flags.has('a');
      if (p.flags.has('s') || p.flags.has('l')) {
        // `cp -rs` / `cp -al`: a tree of directories whose files are links; else one link per file.
        const single = p.flags.has('s') ? 'symlink' : 'hardlink';
        const kind = recursive ? 'mirror' : single;
        return {
          type: 'link',
          kind,
          ...l,
          noDeref: false,
          fromCwd: kind !== 'symlink',
          force: p.flags.has('f') || p.flags.has('remove-destination'),
          unknown: p.unknown,
        };
      }
      // Symlinks are copied as links with -P, -d, -a, and with -R unless -L/-H.
      const keepsLinks = p.flags.has('P') || p.flags.has('d') || p.flags.has('a') || (recursive && !p.flags.has('L') && !p.flags.has('H'));
      if (p.unknown) return { type: 'link', kind: 'symlink', ...l, noDeref: false, fromCwd: false, force: true, unknown: true };
      return keepsLinks ? { type: 'copy-links', ...l, move: false } : null;
    }
    case 'mv': {
      const p = parseOptions(args, MV);
      const l = layout(p);
      if (l === null) return null;
      if (p.unknown) return { type: 'link', kind: 'symlink', ...l, noDeref: false, fromCwd: false, force: true, unknown: true };
      return { type: 'copy-links', ...l, move: true };
    }
    case 'mkdir': {
      const p = parseOptions(args, MKDIR);
      return { type: 'dirs', paths: p.operands, parents: p.flags.has('p') };
    }
    case 'install': {
      // Only `install -d DIR…` makes directories; other forms copy files.
      if (!args.some((a) => a.value === '-d' || a.value === '--directory')) return null;
      const dirs = args.filter((a, i) => !a.value.startsWith('-') && !['-m', '-o', '-g', '--mode', '--owner', '--group'].includes(args[i - 1]?.value ?? ''));
      return { type: 'dirs', paths: dirs.map(wordOf), parents: true };
    }
    case 'rm':
    case 'unlink':
    case 'rmdir': {
      const p = parseOptions(args, program === 'rm' ? RM : { flags: 'pv', valued: '', long: { parents: 'p', verbose: 'v', 'ignore-fail-on-non-empty': 'i' } });
      return { type: 'remove', paths: p.operands };
    }
    default:
      return null;
  }
}
