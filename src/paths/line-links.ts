/**
 * Links and directories made earlier on the command line (recorded by the walker, walk/link-events.ts),
 * resolved to the places they land so that path resolution for a later command walks through them
 * (paths/readings.ts): `ln -s ~ h; rm -rf h/` deletes home although `h` is not on disk yet.
 *
 * Whether an entry exists when a command runs: surely, when it was made in straight-line code
 * before the command (not in a branch, loop, function, pipeline stage or background job), could
 * not fail for an existing name, and was not removed since; otherwise it may, and the command is
 * analysed with and without it — the stricter reading decides. A command in a loop, a function
 * body, a pipeline stage or a background job may also run after entries made later on the line.
 */
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import type { PathClassifier } from './classify.js';
import type { MadeEntry, MadeView } from './readings.js';
import type { LineEvent, RecordedEvent } from '../walk/link-events.js';
import type { WalkedCommand } from '../walk/types.js';

/** The events the walker recorded on the line, in line order. */
export interface RecordedEvents {
  readonly events: readonly RecordedEvent[];
}

interface Made {
  entry: MadeEntry;
  maker: WalkedCommand;
  /** Commands that removed it (`straight`: surely, before what follows them). */
  removedBy: { by: WalkedCommand; straight: boolean }[];
}

const NO_VIEW: MadeView = { names: new Set(), entries: [] };

/** Where the paths of one event land: each word as written, resolved against what was made before it. */
type Locate = (w: string, kind: 'follow' | 'delete') => string[] | null;

export class LineLinks {
  private made: Made[] | null = null;
  private readonly views = new Map<number, MadeView>();
  /** How many events `made` and `views` were computed from (the log only grows). */
  private seen = 0;

  constructor(private readonly log: RecordedEvents) {}

  get empty(): boolean {
    return this.log.events.length === 0;
  }

  /** The entries `reader` can meet, latest first, each marked surely-there or maybe. */
  viewFor(reader: WalkedCommand, classifier: PathClassifier): MadeView {
    if (this.log.events.length === 0) return NO_VIEW;
    if (this.seen !== this.log.events.length) {
      this.seen = this.log.events.length;
      this.made = null;
      this.views.clear();
    }
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
    for (const r of this.log.events) {
      const before = viewOf(made, r.maker);
      const at: Locate = (w, kind) => {
        if (r.cwd === null && !w.startsWith('/')) return null;
        const readings = classifier.readings(w, r.cwd ?? '/', before, false, kind);
        return readings.every((x) => x.path !== undefined) ? readings.map((x) => x.path!) : null;
      };
      const e = r.event;
      switch (e.type) {
        case 'dirs':
          makeDirs(made, r, e, at);
          break;
        case 'remove':
          for (const w of e.paths) if (w !== null) removeAt(made, r, at(w, 'delete'));
          break;
        case 'link':
        case 'copy-links':
          makeLinks(made, r, e, before, at);
          break;
      }
    }
    return made;
  }
}

/** `mkdir DIR…` (with `-p`, the missing parents too). */
function makeDirs(made: Made[], r: RecordedEvent, e: Extract<LineEvent, { type: 'dirs' }>, at: Locate): void {
  const add = (path: string) => made.push({ entry: { path, kind: 'dir', target: null, certain: r.straight }, maker: r.maker, removedBy: [] });
  for (const w of e.paths) {
    if (w === null) continue;
    for (const p of at(w, 'follow') ?? []) {
      add(p);
      if (!e.parents) continue;
      let d = posix.dirname(p);
      for (let n = 0; n < 8 && d !== '/' && !exists(d); n++, d = posix.dirname(d)) add(d);
    }
  }
}

/**
 * Entries at any of `places` are removed by `r` (`rm`, or the source of an `mv`) — except what `r`
 * made itself (`mv a b` where a and b are one place).
 */
function removeAt(made: Made[], r: RecordedEvent, places: string[] | null): void {
  const gone = new Set(places ?? []);
  for (const m of made) if (gone.has(m.entry.path) && m.maker !== r.maker) m.removedBy.push({ by: r.maker, straight: r.straight });
}

/** `ln`, `link`, `cp -s`/`-l`/`-a`, `mv`: a new entry for each source, where the destination says. */
function makeLinks(made: Made[], r: RecordedEvent, e: Extract<LineEvent, { type: 'link' | 'copy-links' }>, before: MadeView, at: Locate): void {
  for (const source of e.sources) {
    const name = source === null ? null : posix.basename(source.replace(/\/+$/, '')) || null;
    for (const spot of placesFor(e, name, before, at)) {
      let target: string | null;
      let kind: MadeEntry['kind'];
      if (e.type === 'link') {
        kind = e.kind;
        if (e.unknown || source === null) target = null;
        else target = e.fromCwd ? fromCwd(source, r.cwd) : source;
      } else {
        // A copied or moved symlink keeps its text; anything else is not a link.
        const link = source === null ? undefined : linkAt(source, at, before, e.move);
        if (link === undefined) continue;
        kind = link.kind;
        target = link.target;
      }
      const free = !existsOrMade(spot.path, before);
      const certain = r.straight && spot.sure && (e.type === 'copy-links' || e.force || free);
      made.push({ entry: { path: spot.path, kind, target, certain }, maker: r.maker, removedBy: [] });
    }
    if (e.type === 'copy-links' && e.move && source !== null) removeAt(made, r, at(source, 'delete'));
  }
}

/** Where a new entry named after `name` lands for `ln`/`cp`/`mv` with destination `dest`. */
function placesFor(
  e: Extract<LineEvent, { type: 'link' | 'copy-links' }>,
  name: string | null,
  before: MadeView,
  at: Locate,
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
function linkAt(source: string, at: Locate, before: MadeView, move: boolean): { kind: MadeEntry['kind']; target: string | null } | undefined {
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
