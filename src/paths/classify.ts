/**
 * Classify a path: workspace, temp, outside; and, independently, root, home, system dir, device,
 * sensitive. Glob patterns are classified by what they may match (`/???/shadow` may be
 * `/etc/shadow`), using picomatch against example paths of each class.
 */
import picomatch from 'picomatch';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { posix } from 'node:path';
import { isInside, RealpathCache, realpathNearest, staticPrefix } from './resolve.js';
import { EXEC_CONFIG, EXEC_CONFIG_EXAMPLES, EXEC_CONFIG_HINT } from './exec-config.js';
import { detectCaseInsensitive, foldsCase, type CaseDetector } from './case-fold.js';
import { pathReadings, type MadeView, type PathReading } from './readings.js';
import { linkReadings, linksBelowReadings, parentReadings, type GlobEntry } from './glob-reach.js';
import { globsMayMeet } from './glob-meet.js';
import { namesIn, namesStayWhole, scanTree, type NameSplit, type TreeEntry } from './name-scan.js';
import { globForms, isSubtree, namesNoFile } from './sensitive-forms.js';

export type PathClass =
  | 'workspace'
  | 'temp'
  | 'outside'
  | 'root'
  | 'home'
  | 'system'
  | 'device'
  | 'special-device'
  | 'sensitive'
  /**
   * Files that change what a later command runs when it loads them (`.git/**`, `.cargo/config*`,
   * `.lesskey`, `.gitattributes`, `.envrc`, `.npmrc`…): writing one plants code.
   */
  | 'exec-config';

/** Top-level system directories. */
export const SYSTEM_DIRS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/proc',
  '/root',
  '/sbin',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/snap',
  '/System',
  '/Library',
  '/Applications',
  '/private',
];

/** Devices that are safe to read from or write to (not storage). */
const SPECIAL_DEVICES = /^\/dev\/(null|zero|u?random|full|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+)$/;

/**
 * Devices a write leaves nothing in: /dev/null discards it, and /dev/stdout and /dev/stderr are the
 * command's own output streams — the agent's pipe, or a file that a redirect on the line opens, which
 * is a Write of its own. A write to one of them changes no file (`2>/dev/null`, `>&2` spelt as a path).
 */
const DISCARDING_SINKS = /^\/dev\/(null|stdout|stderr)$/;

/** Writing `path` (an exact path, not a glob) changes no file. */
export function writeChangesNothing(path: string): boolean {
  return DISCARDING_SINKS.test(path);
}

/** Sensitive files, `~` for the home directory (issue #2's list, plus keys and registry tokens). */
export const SENSITIVE_PATTERNS = [
  '~/.ssh/**',
  '~/.aws/**',
  '~/.gnupg/**',
  '~/.kube/**',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.git-credentials',
  '~/.npmrc',
  '~/.pypirc',
  '~/.config/gh/hosts.yml',
  '~/.config/gcloud/**',
  '~/.azure/**',
  '~/.bashrc',
  '~/.bash_profile',
  '~/.bash_login',
  '~/.bash_logout',
  '~/.profile',
  '~/.zshrc',
  '~/.zshenv',
  '~/.zprofile',
  '~/.zlogin',
  '~/.config/fish/**',
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/sudoers',
  '/etc/sudoers.d/**',
  '/etc/profile',
  '/etc/bash.bashrc',
  '**/.env',
  '**/.env.*',
  '**/.git/hooks/**',
  '**/.git/config',
  '**/.claude/**',
  '**/.qwen/**',
  '**/.gemini/**',
  '**/.codex/**',
  '**/.cursor/**',
  '~/.copilot/**',
  '**/.github/hooks/**',
  // shellgate's own settings and its code cache (bin/shellgate.cjs runs what the cache holds).
  '~/.config/shellgate/**',
  '~/.cache/shellgate/**',
  '**/.vscode/settings.json',
  '**/.mcp.json',
  '**/id_rsa*',
  '**/id_ed25519*',
  '**/id_ecdsa*',
];

/**
 * dotenv templates: committed on purpose so that others know which variables to set, with
 * placeholders for values (`.env.example`); what `.env.*` means to leave out.
 */
export const DOTENV_TEMPLATES = ['**/.env.example', '**/.env.sample', '**/.env.template', '**/.env.dist', '**/.env.defaults'];

/**
 * Another account's home, sensitive as a whole. Not when it is the home being analysed for (an
 * agent running as root: its own files are judged by the `~/` patterns above) and not inside a
 * workspace root (a workspace at /root/project is the user's to work in).
 */
export const OTHER_HOMES = ['/root/**'];

/** The sensitive patterns for a user whose home is `home`. */
export function sensitivePatterns(home: string): string[] {
  const own = home.replace(/\/+$/, '') || '/';
  return [...SENSITIVE_PATTERNS, ...OTHER_HOMES.filter((p) => !isInside(own, p.replace(/\/\*\*$/, '')))];
}

/** Shell glob options that change what a pattern matches. */
export interface GlobMatchOptions {
  dotglob?: boolean;
  nocaseglob?: boolean;
  /**
   * The pattern stands for names a program lists (find's `{}`, what `find . -print0` prints into
   * xargs), not a shell glob: one that names no file in particular (`./**`) is a walk of its
   * directory, judged as `grep -r x dir` is — by the directory.
   */
  produced?: boolean;
}
const NO_GLOB_OPTIONS: GlobMatchOptions = {};
/** Globs (the pattern, then each link target inside the workspace it goes on from) looked at for one pattern. */
const MAX_LINK_HOPS = 16;

/** The shared temp dirs when none are given: `/tmp`, `/var/tmp` and the system's (`$TMPDIR`). */
export function defaultTempDirs(): string[] {
  return ['/tmp', '/var/tmp', tmpdir()];
}

export interface ClassifierOptions {
  home: string;
  workspaceRoots: string[];
  tempDirs?: string[];
  /** How long realpaths read from disk may be reused, in ms (default 0: read for every analysis). */
  realpathTtlMs?: number;
  /** Tells whether a directory's file system folds case (default: look at the disk). */
  caseInsensitive?: CaseDetector;
}

/** One expression for a list of globs (classification runs for every path). */
function combine(patterns: string[], nocase: boolean): RegExp {
  if (patterns.length === 0) return /(?!)/; // an empty alternation would match everything
  return new RegExp(patterns.map((p) => picomatch.makeRe(p, { dot: true, nocase }).source).join('|'), nocase ? 'i' : '');
}

/** One expression for a list of globs, and (compiled when first needed) its case-folding twin. */
class Matcher {
  readonly exact: RegExp;
  private foldedRe: RegExp | null = null;

  constructor(private readonly patterns: string[]) {
    this.exact = combine(patterns, false);
  }

  /** Names folded to one case: only file systems that fold case need it (macOS, Windows). */
  get folded(): RegExp {
    this.foldedRe ??= combine(this.patterns, true);
    return this.foldedRe;
  }

  /** Answers by path, exact and folded (a pure function of the text; the working directory recurs in every analysis). */
  private readonly answers = [new Map<string, boolean>(), new Map<string, boolean>()];

  test(path: string, folded: boolean): boolean {
    const memo = this.answers[folded ? 1 : 0];
    let answer = memo.get(path);
    if (answer === undefined) {
      answer = (folded ? this.folded : this.exact).test(path);
      if (memo.size >= 4096) memo.clear();
      memo.set(path, answer);
    }
    return answer;
  }
}

export class PathClassifier {
  readonly workspaceRoots: string[];
  readonly tempDirs: string[];
  private readonly home: string;
  /** The home directory resolved through symlinks (`rm -rf ~` where /home is a link). */
  private readonly realHome: string;
  private readonly sensitive: Matcher;
  private readonly templates: Matcher;
  private readonly otherHomes: Matcher;
  private readonly execConfig: Matcher;
  /** Workspace roots and home on a file system that folds case: names match without case there. */
  private readonly foldRoots: string[];
  /** The sensitive patterns, `~` replaced by the home, other homes included: what a glob is compared with. */
  private readonly sensitiveGlobs: string[];
  /** The patterns of sensitive directories' contents, for a glob that names no file in particular. */
  private readonly sensitiveDirs: string[];
  private readonly realpaths: RealpathCache;

  constructor(opts: ClassifierOptions) {
    this.home = opts.home.replace(/\/+$/, '') || '/';
    this.realHome = realpathNearest(this.home);
    this.realpaths = new RealpathCache(opts.realpathTtlMs ?? 0);
    this.workspaceRoots = opts.workspaceRoots.map((r) => realpathNearest(r));
    const temps = opts.tempDirs ?? defaultTempDirs();
    this.tempDirs = [...new Set(temps.map((t) => realpathNearest(t)))];
    const matcher = (patterns: string[]): Matcher => new Matcher(patterns);
    this.sensitive = matcher(SENSITIVE_PATTERNS.map((p) => this.withHome(p)));
    this.templates = matcher(DOTENV_TEMPLATES);
    this.otherHomes = matcher(sensitivePatterns(this.home).filter((p) => OTHER_HOMES.includes(p)));
    this.execConfig = matcher(EXEC_CONFIG.map((e) => this.withHome(e.pattern)));
    const detector = opts.caseInsensitive ?? detectCaseInsensitive;
    this.foldRoots = [...new Set([...this.workspaceRoots, this.realHome])].filter((r) => foldsCase(r, detector)).map((r) => r.toLowerCase());
    const sensitive = sensitivePatterns(this.home).map((p) => this.withHome(p));
    this.sensitiveGlobs = sensitive.flatMap(globForms);
    this.sensitiveDirs = sensitive.filter(isSubtree).flatMap(globForms);
  }

  private withHome(p: string): string {
    return p.startsWith('~') ? this.home + p.slice(1) : p;
  }

  /** Where the kernel lands for an absolute path (symlinks on disk followed; a loop: as written). */
  physical(path: string): string {
    return this.realpaths.realpathNearest(path);
  }

  /**
   * Where the kernel lands for an absolute path, `..` after a link applied to its target; null when
   * that takes more than 40 symbolic links (a loop: the kernel fails with ELOOP, nothing is known).
   */
  landing(path: string): string | null {
    return this.realpaths.physical(path);
  }

  /** Is there a directory at `path` (following symlinks)? */
  isDirectory(path: string): boolean {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  }

  /** Trees scanned in this analysis, by physical directory (paths/name-scan.ts): one walk answers every question. */
  private readonly trees = new Map<string, TreeEntry[] | null>();
  private readonly listings = new Map<string, string[] | null>();

  /** The entries under a workspace directory (physical paths), read once per analysis; null when not known or not in a workspace. */
  treeBelow(dir: string): TreeEntry[] | null {
    const real = this.realpaths.realpathNearest(dir);
    // Only a workspace is walked: a temp dir is shared, often large, and anyone may make names in it.
    if (!this.inWorkspace(real)) return null;
    let tree = this.trees.get(real);
    if (tree === undefined) {
      tree = scanTree(real);
      this.trees.set(real, tree);
    }
    return tree;
  }

  /** The names directly in a workspace directory (`*` expands to them); null when not known or not in a workspace. */
  namesIn(dir: string): string[] | null {
    const real = this.realpaths.realpathNearest(dir);
    if (!this.inWorkspace(real)) return null;
    let names = this.listings.get(real);
    if (names === undefined) {
      names = namesIn(real);
      this.listings.set(real, names);
    }
    return names;
  }

  /** Is a physical path inside a workspace root? */
  inWorkspace(real: string): boolean {
    return this.workspaceRoots.some((r) => isInside(real, r));
  }

  /**
   * Is this file, met by a walk below a workspace directory (its path is physical: the walk follows
   * no link), one of the sensitive files a direct read of it would ask for?
   */
  sensitiveFile(path: string): boolean {
    const folded = this.folds(path);
    return this.sensitive.test(path, folded) && !this.templates.test(path, folded);
  }

  /**
   * Is a sensitive file (or a link, which may lead anywhere) somewhere below a directory? Outside
   * the workspaces the directory is judged by itself, as a path; a tree that cannot be looked at may hold one.
   */
  private treeHoldsSensitive(dir: string): boolean {
    if (!this.inWorkspace(dir)) return false;
    const tree = this.treeBelow(dir);
    return (
      tree === null || tree.some((e) => e.kind !== 'dir' && (this.sensitiveFile(e.path) || (e.kind === 'link' && !this.inWorkspace(this.physical(e.path)))))
    );
  }

  /**
   * Do the names under `dir` stay whole when split as `split` cuts (paths/name-scan.ts)? Only a
   * directory inside a workspace root is walked; read once per analysis.
   */
  namesStayWhole(dir: string, split: NameSplit): boolean {
    return namesStayWhole(this.treeBelow(dir), split);
  }

  /** Called when an analysis starts: realpaths older than the reuse window are read again. */
  startAnalysis(): void {
    this.realpaths.startAnalysis();
    this.trees.clear();
    this.listings.clear();
    this.entries.clear();
  }

  /**
   * What the kernel reaches for `value` written in `cwd` (see paths/readings.ts), given what the
   * line made before (`made`). `kind` decides whether a final symlink is followed.
   */
  readings(value: string, cwd: string, made: MadeView | null, glob: boolean, kind: 'follow' | 'delete' = 'follow'): PathReading[] {
    return pathReadings(value, cwd, { realpaths: this.realpaths, made, glob, followLast: kind === 'follow', removesName: kind === 'delete' });
  }

  /**
   * Classes of an absolute path (or glob pattern over absolute paths). `followLast: false` for an
   * operation on the name itself (`rm link` removes the link, not what it points to). For a glob,
   * `options` are the shell's glob options that may be on (`dotglob`: `*` matches dot files).
   */
  classify(path: string, glob: boolean, followLast = true, options: GlobMatchOptions = NO_GLOB_OPTIONS): PathClass[] {
    if (!glob) return this.classifyOne(path, false, followLast, options);
    // `.*` may match `..` (bash ≤ 5.1): what the pattern reaches through a parent is classified too.
    const classes = this.classifyOne(path, true, followLast, options);
    const readings = parentReadings(path);
    const links = this.linksMet(path, options);
    if (readings.length === 0 && links !== null && links.length === 0) return classes;
    const all = new Set(classes);
    // Links it may meet are not known (the tree is too large, or unreadable): it may reach outside.
    if (links === null) all.add('outside');
    for (const r of readings) for (const c of this.classifyOne(r, /[*?[]/.test(r), true, options)) all.add(c);
    for (const r of links ?? []) for (const c of this.classifyOne(r, /[*?[]/.test(r), true, options)) all.add(c);
    return [...all];
  }

  private classifyOne(path: string, glob: boolean, followLast: boolean, options: GlobMatchOptions): PathClass[] {
    // A handful at most, each added once: an array is all it takes.
    const classes: PathClass[] = [];
    const add = (c: PathClass) => {
      if (!classes.includes(c)) classes.push(c);
    };
    // /dev/stdin, /dev/stderr, /dev/fd/N are links to this process's descriptors: classify as written.
    if (!glob && SPECIAL_DEVICES.test(path)) return ['special-device'];
    const bound = glob ? staticPrefix(path) : path;
    const real =
      followLast || glob || bound === '/'
        ? this.realpaths.realpathNearest(bound)
        : posix.join(this.realpaths.realpathNearest(posix.dirname(bound)), posix.basename(bound));
    const inWorkspace = this.workspaceRoots.some((r) => isInside(real, r));
    let where: PathClass = 'outside';
    if (inWorkspace) where = 'workspace';
    else if (this.tempDirs.some((t) => isInside(real, t))) where = 'temp';
    add(where);
    if (SPECIAL_DEVICES.test(real)) return ['special-device'];
    if (real === '/' || (glob && bound === '/')) add('root');
    if (real === this.home || real === this.realHome || (glob && (bound === this.home || bound === this.realHome))) add('home');
    if (isInside(real, '/dev')) add('device');
    else if (where === 'outside' && SYSTEM_DIRS.some((d) => isInside(real, d)) && !this.ownHome(real)) add('system');
    if (glob && bound === '/' && classes.includes('outside')) add('system');
    const folded = this.folds(real) || this.folds(path);
    // The path as written and where it lands: either may carry the name (`.env` → x, or x → `.env`).
    const test = (m: Matcher) => m.test(real, folded) || (path !== real && m.test(path, folded));
    // A template is left out only as itself: a link named `.env.example` to `.env` is `.env`.
    const template = !glob && this.templates.test(real, folded) && (path === real || this.templates.test(path, folded));
    const named = test(this.sensitive) && !template;
    if (named || (!inWorkspace && test(this.otherHomes)) || (glob && this.globMaySensitive(path, real, bound, folded, options))) add('sensitive');
    const hinted = EXEC_CONFIG_HINT.test(real) || (path !== real && EXEC_CONFIG_HINT.test(path));
    if ((hinted && test(this.execConfig)) || (glob && this.globMayExecConfig(path, bound, options))) add('exec-config');
    return classes;
  }

  private readonly entries = new Map<string, GlobEntry[] | null>();

  /**
   * Where a glob inside a workspace goes through the links it can meet on disk (paths/glob-reach.ts):
   * each is the pattern's rest below the link's target, followed on where a target inside the
   * workspace holds links of its own. A glob with `**`, or whose directories are too many to list,
   * may meet any link below its fixed directory (the name scan lists them). Null when what it may
   * meet is not known (a tree too large or unreadable): nothing may be assumed about it.
   */
  linksMet(pattern: string, options: GlobMatchOptions = NO_GLOB_OPTIONS): string[] | null {
    const dot = !!options.dotglob || !!options.produced;
    const out: string[] = [];
    const seen = new Set<string>();
    const queue = [pattern];
    for (let i = 0; i < queue.length && i < MAX_LINK_HOPS; i++) {
      const bound = staticPrefix(queue[i]);
      if (!this.inWorkspace(this.realpaths.realpathNearest(bound))) continue;
      const met = linkReadings(queue[i], bound, (d) => this.globEntries(d), dot) ?? this.linksBelow(queue[i], bound, dot);
      if (met === null) return null;
      for (const { link, rest } of met) {
        const target = this.realpaths.realpathNearest(link);
        const reading = rest === '' ? link : (target === '/' ? '' : target) + '/' + rest;
        if (seen.has(reading)) continue;
        seen.add(reading);
        // `**/last` goes on below a directory only; a link to a file is met by its own name.
        if (rest !== '' && rest.startsWith('**') && !this.isDirectory(target)) continue;
        out.push(reading);
        // A link to another workspace directory: the rest of the pattern may meet links there.
        if (rest !== '' && this.inWorkspace(target)) queue.push(reading);
      }
    }
    return queue.length > MAX_LINK_HOPS ? null : out;
  }

  /** The links a glob with `**` may meet below its fixed directory, from the name scan; null when the tree is not known. */
  private linksBelow(pattern: string, bound: string, dot: boolean): { link: string; rest: string }[] | null {
    const tree = this.treeBelow(bound);
    if (tree === null) return null;
    // The scan lists physical paths: a link's path is written below the glob's own directory again.
    const real = this.realpaths.realpathNearest(bound);
    const links = tree.filter((e) => e.kind === 'link').map((e) => ({ path: bound + e.path.slice(real.length), name: e.name, hidden: e.hidden }));
    return linksBelowReadings(pattern, links, dot);
  }

  /** The entries of a workspace directory, links marked (read once per analysis). */
  private globEntries(dir: string): GlobEntry[] | null {
    if (!this.inWorkspace(this.realpaths.realpathNearest(dir))) return null;
    let entries = this.entries.get(dir);
    if (entries === undefined) {
      try {
        entries = readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, link: e.isSymbolicLink() }));
      } catch (e) {
        entries = (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR' ? [] : null;
      }
      this.entries.set(dir, entries);
    }
    return entries;
  }

  /** Inside the analysed user's own home, which is not a system directory even under /root. */
  private ownHome(real: string): boolean {
    if (this.home === '/' || (SYSTEM_DIRS.includes(this.home) && this.home !== '/root')) return false;
    return isInside(real, this.home) || isInside(real, this.realHome);
  }

  private folds(p: string): boolean {
    if (this.foldRoots.length === 0) return false;
    const lower = p.toLowerCase();
    return this.foldRoots.some((r) => isInside(lower, r));
  }

  private readonly globCache = new Map<string, boolean>();
  private readonly globExecCache = new Map<string, string[]>();

  /**
   * May a glob match an exec-config file? Examples are placed in the glob's own directory
   * (`sub/*` may match `sub/pip.conf`). A glob names what exists: a matched example counts when
   * the entry it sits in is there (`.git` for anything under it) — or when the directory cannot
   * be read, so nothing is known.
   */
  private globMayExecConfig(pattern: string, dir: string, options: GlobMatchOptions): boolean {
    const base = dir === '/' ? '' : dir;
    const key = (options.dotglob ? 'd' : '') + (options.nocaseglob ? 'i' : '') + '\0' + pattern;
    let probes = this.globExecCache.get(key);
    if (probes === undefined) {
      if (this.globExecCache.size > 5000) this.globExecCache.clear();
      const examples = EXEC_CONFIG_EXAMPLES.map((e) => this.withHome(e).replace('{ws}', () => base));
      probes = examples.filter(globMatcher(pattern, options)).map((e) => (e.startsWith(base + '/') ? base + '/' + e.slice(base.length + 1).split('/')[0] : e));
      this.globExecCache.set(key, probes);
    }
    if (probes.length === 0) return false;
    return !this.realpaths.exists(dir) || probes.some(lexists);
  }

  /**
   * May a glob match a sensitive file? Compared pattern against pattern (paths/glob-meet.ts), as
   * written and with its fixed prefix where the disk resolves it (`link/*` where link → ~/.ssh).
   */
  private globMaySensitive(pattern: string, real: string, bound: string, folded: boolean, options: GlobMatchOptions): boolean {
    // Every name a program lists below a directory (find's `./**`, `find . | xargs cat`): the files
    // really there decide, read from the disk (not cached across analyses: the disk changes).
    if (options.produced && namesNoFile(pattern)) return this.treeHoldsSensitive(real);
    const key = (options.dotglob ? 'd' : '') + (options.produced ? 'p' : '') + (options.nocaseglob || folded ? 'i' : '') + '\0' + pattern + '\0' + real;
    const cached = this.globCache.get(key);
    if (cached !== undefined) return cached;
    if (this.globCache.size > 5000) this.globCache.clear();
    const meet = { dotA: !!options.dotglob, dotB: true, nocase: !!options.nocaseglob || folded };
    const forms = real !== bound && pattern.startsWith(bound) ? [pattern, real + pattern.slice(bound.length)] : [pattern];
    const against = namesNoFile(pattern) && !options.dotglob ? this.sensitiveDirs : this.sensitiveGlobs;
    const result = forms.some((p) => against.some((s) => globsMayMeet(p, s, meet)));
    this.globCache.set(key, result);
    return result;
  }
}

function lexists(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The glob as a test of one path; a pattern picomatch cannot read may match anything. */
function globMatcher(pattern: string, options: GlobMatchOptions = NO_GLOB_OPTIONS): (path: string) => boolean {
  try {
    // bash's `*` and `**` skip dot names unless dotglob; find's `{}` and produced paths come with it on.
    return picomatch(pattern, { dot: !!options.dotglob, nocase: !!options.nocaseglob });
  } catch {
    return () => true;
  }
}
