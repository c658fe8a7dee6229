/**
 * Links and directories the command line makes before later commands use them. `ln -s ~ h;
 * rm -rf h/` deletes home, yet `h` is not on disk while the line is analysed: the walker records
 * what `ln`, `cp -s`/`-l`/`-a`, `mv`, `link`, `mkdir` and `install -d` make (and what `rm` removes),
 * and path resolution for a later command walks through it (paths/readings.ts).
 *
 * Whether an entry exists when a command runs: surely, when it was made in straight-line code
 * before the command (not in a branch, loop, function, pipeline stage or background job), could
 * not fail for an existing name, and was not removed since; otherwise it may, and the command is
 * analysed with and without it — the stricter reading decides. A command in a loop, a function
 * body, a pipeline stage or a background job may also run after entries made later on the line.
 */
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import type { PathClassifier } from '../paths/classify.js';
import type { MadeEntry, MadeView } from '../paths/readings.js';
import type { Arg, WalkedCommand } from './types.js';

/** A word of the command: its value, or null when it is only known at run time. */
type Word = string | null;

type LineEvent =
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

interface Recorded {
  event: LineEvent;
  maker: WalkedCommand;
  cwd: string | null;
  /** Straight-line code: it surely ran before what follows it. */
  straight: boolean;
}

interface Made {
  entry: MadeEntry;
  maker: WalkedCommand;
  /** Commands that removed it (`straight`: surely, before what follows them). */
  removedBy: { by: WalkedCommand; straight: boolean }[];
}

const NO_VIEW: MadeView = { names: new Set(), entries: [] };

export class LineLinks {
  private readonly events: Recorded[] = [];
  private made: Made[] | null = null;
  private readonly views = new Map<number, MadeView>();

  /** Record what an argv makes; called by the walker for every command it emits. */
  record(program: string, args: Arg[], walked: WalkedCommand, cwd: string | null, certain: boolean): void {
    if (walked.context.remote !== null) return; // another host's filesystem
    const event = parseEvent(program, args);
    if (event === null) return;
    const c = walked.context;
    const straight = certain && !c.conditional && !c.background && !c.loop && c.functionName === null && c.pipeline === null && (c.substitution === null || c.substitution === 'command');
    this.events.push({ event, maker: walked, cwd, straight });
    this.made = null;
    this.views.clear();
  }

  get empty(): boolean {
    return this.events.length === 0;
  }

  /** The entries `reader` can meet, latest first, each marked surely-there or maybe. */
  viewFor(reader: WalkedCommand, classifier: PathClassifier): MadeView {
    if (this.events.length === 0) return NO_VIEW;
    const cached = this.views.get(reader.id);
    if (cached) return cached;
    const made = (this.made ??= this.normalise(classifier));
    const view = viewOf(made, reader);
    this.views.set(reader.id, view);
    return view;
  }

  /** Resolve every event's paths, in line order, each against what was made before it. */
  private normalise(classifier: PathClassifier): Made[] {
    const made: Made[] = [];
    for (const r of this.events) {
      const before = viewOf(made, r.maker);
      const at = (w: string, kind: 'follow' | 'delete'): string[] | null => {
        if (r.cwd === null && !w.startsWith('/')) return null;
        const readings = classifier.readings(w, r.cwd ?? '/', before, false, kind);
        return readings.every((x) => x.path !== undefined) ? readings.map((x) => x.path!) : null;
      };
      const add = (entry: MadeEntry) => made.push({ entry, maker: r.maker, removedBy: [] });
      const e = r.event;
      switch (e.type) {
        case 'dirs':
          for (const w of e.paths) {
            if (w === null) continue;
            for (const p of at(w, 'follow') ?? []) {
              add({ path: p, kind: 'dir', target: null, certain: r.straight });
              if (!e.parents) continue;
              let d = posix.dirname(p);
              for (let n = 0; n < 8 && d !== '/' && !exists(d); n++, d = posix.dirname(d)) add({ path: d, kind: 'dir', target: null, certain: r.straight });
            }
          }
          break;
        case 'remove':
          for (const w of e.paths) {
            if (w === null) continue;
            const gone = new Set(at(w, 'delete') ?? []);
            for (const m of made) if (gone.has(m.entry.path)) m.removedBy.push({ by: r.maker, straight: r.straight });
          }
          break;
        case 'link':
        case 'copy-links': {
          for (const source of e.sources) {
            const name = source === null ? null : posix.basename(source.replace(/\/+$/, '')) || null;
            for (const spot of placesFor(e, name, before, at)) {
              let target: string | null;
              let kind: MadeEntry['kind'];
              if (e.type === 'link') {
                kind = e.kind;
                target = e.unknown || source === null ? null : e.fromCwd ? fromCwd(source, r.cwd) : source;
              } else {
                // A copied or moved symlink keeps its text; anything else is not a link.
                const link = source === null ? undefined : linkAt(source, at, before, e.move);
                if (link === undefined) continue;
                kind = link.kind;
                target = link.target;
              }
              const free = !existsOrMade(spot.path, before);
              const certain = r.straight && spot.sure && (e.type === 'copy-links' || e.force || free);
              add({ path: spot.path, kind, target, certain });
            }
            if (e.type === 'copy-links' && e.move && source !== null) {
              const gone = new Set(at(source, 'delete') ?? []);
              for (const m of made) if (gone.has(m.entry.path) && m.maker !== r.maker) m.removedBy.push({ by: r.maker, straight: r.straight });
            }
          }
          break;
        }
      }
    }
    return made;
  }
}

/** Where a new entry named after `name` lands for `ln`/`cp`/`mv` with destination `dest`. */
function placesFor(
  e: Extract<LineEvent, { type: 'link' | 'copy-links' }>,
  name: string | null,
  before: MadeView,
  at: (w: string, kind: 'follow' | 'delete') => string[] | null,
): { path: string; sure: boolean }[] {
  if (e.dest === null) return [];
  const inside = name === null ? [] : (at(e.dest.replace(/\/+$/, '') + '/' + name, 'delete') ?? []);
  const itself = e.dest.endsWith('/') ? [] : (at(e.dest, 'delete') ?? []);
  if (e.into === 'always') return inside.map((path) => ({ path, sure: inside.length === 1 }));
  if (e.into === 'never') return itself.map((path) => ({ path, sure: itself.length === 1 }));
  const out: { path: string; sure: boolean }[] = [];
  for (const p of itself) {
    const dir = isDirectory(p, e.type === 'link' && e.noDeref, before);
    if (dir !== true) out.push({ path: p, sure: dir === false && itself.length === 1 });
    if (dir !== false) for (const q of inside) out.push({ path: q, sure: dir === true && inside.length === 1 });
  }
  return out;
}

/** Is `p` a directory now (on disk or made before)? null: it may or may not be. */
function isDirectory(p: string, noDeref: boolean, before: MadeView): boolean | null {
  const here = before.entries.find((m) => m.path === p);
  if (here) {
    if (here.kind === 'dir' || here.kind === 'mirror') return here.certain ? true : null;
    if (here.kind === 'hardlink') return here.certain ? false : null;
    return noDeref && here.certain ? false : null; // a symlink: a directory only if its target is one
  }
  try {
    if (noDeref && lstatSync(p).isSymbolicLink()) return false;
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function existsOrMade(p: string, before: MadeView): boolean {
  return before.entries.some((m) => m.path === p) || exists(p);
}

function exists(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The link a source names, made on the line or on disk: a symlink keeps its text when copied as a
 * link or moved; a moved entry of any kind keeps what it is. Undefined: not a link (or, copying,
 * not a symlink); a target of null: the source's place is unknown.
 */
function linkAt(
  source: string,
  at: (w: string, kind: 'follow' | 'delete') => string[] | null,
  before: MadeView,
  move: boolean,
): { kind: MadeEntry['kind']; target: string | null } | undefined {
  const places = at(source, 'delete');
  if (places === null) return { kind: 'symlink', target: null };
  for (const p of places) {
    const made = before.entries.find((m) => m.path === p && (move || m.kind === 'symlink'));
    if (made) return { kind: made.kind, target: made.target };
    try {
      return { kind: 'symlink', target: readlinkSync(p) };
    } catch {
      // not a symlink
    }
  }
  return undefined;
}

function fromCwd(source: string, cwd: string | null): string | null {
  if (source.startsWith('/')) return source;
  return cwd === null ? null : cwd + '/' + source;
}

/** The entries a reader can meet, latest first, with whether each is surely there for it. */
function viewOf(made: Made[], reader: WalkedCommand): MadeView {
  const entries: MadeEntry[] = [];
  const names = new Set<string>();
  for (let i = made.length - 1; i >= 0; i--) {
    const m = made[i];
    const before = m.maker.id < reader.id;
    // A command meets what it made itself only on a later pass of a loop.
    if (m.maker === reader ? !reader.context.loop : !before && !mayRunAfter(reader, m.maker)) continue;
    // Surely removed before the reader (and the reader runs once, after): it is not there.
    if (m.removedBy.some((x) => x.straight && x.by.id < reader.id) && !rerun(reader)) continue;
    const removed = m.removedBy.some((x) => x.by.id < reader.id || mayRunAfter(reader, x.by));
    const certain = m.entry.certain && before && !removed;
    entries.push(certain === m.entry.certain ? m.entry : { ...m.entry, certain });
    // Directories are never walked through as links: they only tell `ln` where a link goes.
    if (m.entry.kind !== 'dir') names.add(posix.basename(m.entry.path));
  }
  return { names, entries };
}

/** May the reader run more than once, or at another time than where it is written? */
function rerun(reader: WalkedCommand): boolean {
  const r = reader.context;
  return r.loop || r.functionName !== null || r.background || r.pipeline !== null;
}

/** Can `reader`, walked before `maker`, run after it? (loops, function bodies, concurrency) */
function mayRunAfter(reader: WalkedCommand, maker: WalkedCommand): boolean {
  const r = reader.context;
  if (r.functionName !== null || r.background || (r.substitution !== null && r.substitution !== 'command')) return true;
  if (r.loop && maker.context.loop) return true;
  return r.pipeline !== null && maker.context.pipeline?.id === r.pipeline.id;
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
      if (name.endsWith('=')) values.set(key, eq >= 0 ? v.slice(eq + 1) : (i + 1 < args.length ? wordOf(args[++i]) : null));
      else flags.add(key);
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
        values.set(ch, rest !== '' ? rest : i + 1 < args.length ? wordOf(args[++i]) : null);
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

const LN: OptionTable = {
  flags: 'bdFfiLnPrsTv',
  valued: 'St',
  long: {
    'backup': 'b', 'backup=': 'b', 'directory': 'd', 'force': 'f', 'interactive': 'i', 'logical': 'L', 'no-dereference': 'n',
    'physical': 'P', 'relative': 'r', 'symbolic': 's', 'suffix=': 'S', 'target-directory=': 't', 'no-target-directory': 'T',
    'verbose': 'v', 'help': 'help', 'version': 'version',
  },
};

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

const MV: OptionTable = {
  flags: 'bfinTuvZ',
  valued: 'St',
  long: {
    'backup': 'b', 'backup=': 'b', 'force': 'f', 'interactive': 'i', 'no-clobber': 'n', 'no-copy': 'no-copy', 'strip-trailing-slashes': 'strip-trailing-slashes',
    'suffix=': 'S', 'target-directory=': 't', 'no-target-directory': 'T', 'update': 'u', 'update=': 'u', 'verbose': 'v', 'exchange': 'exchange',
    'context': 'Z', 'help': 'help', 'version': 'version',
  },
};

const MKDIR: OptionTable = { flags: 'pvZ', valued: 'm', long: { 'mode=': 'm', 'parents': 'p', 'verbose': 'v', 'context': 'Z', 'context=': 'Z', 'help': 'help', 'version': 'version' } };
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
      return { type: 'link', kind: symbolic ? 'symlink' : 'hardlink', ...l, noDeref: p.flags.has('n'), fromCwd: !symbolic || p.flags.has('r'), force: p.flags.has('f'), unknown: p.unknown };
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
        const kind = recursive ? 'mirror' : p.flags.has('s') ? 'symlink' : 'hardlink';
        return { type: 'link', kind, ...l, noDeref: false, fromCwd: kind !== 'symlink', force: p.flags.has('f') || p.flags.has('remove-destination'), unknown: p.unknown };
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
