/**
 * Classify a path: workspace, temp, outside; and, independently, root, home, system dir, device,
 * sensitive. Glob patterns are classified by what they may match (`/???/shadow` may be
 * `/etc/shadow`), using picomatch against example paths of each class.
 */
import picomatch from 'picomatch';
import { tmpdir } from 'node:os';
import { isInside, RealpathCache, realpathNearest, staticPrefix } from './resolve.js';
import { parentReadings } from './glob-reach.js';

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
export const SYSTEM_DIRS = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/sbin', '/srv', '/sys', '/usr', '/var', '/snap', '/System', '/Library', '/Applications', '/private'];

/** Devices that are safe to read from or write to (not storage). */
const SPECIAL_DEVICES = /^\/dev\/(null|zero|u?random|full|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+)$/;

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
  '/root/**',
  '**/.env',
  '**/.env.*',
  '**/.git/hooks/**',
  '**/.git/config',
  '**/.claude/**',
  '**/.qwen/**',
  '**/.gemini/**',
  '**/.codex/**',
  '**/.cursor/**',
  '**/.vscode/settings.json',
  '**/.mcp.json',
  '**/id_rsa*',
  '**/id_ed25519*',
  '**/id_ecdsa*',
];

/** Concrete examples per sensitive pattern, for deciding what a glob may match. */
const SENSITIVE_EXAMPLES = [
  '~/.ssh/id_rsa',
  '~/.ssh/authorized_keys',
  '~/.aws/credentials',
  '~/.gnupg/private-keys-v1.d',
  '~/.kube/config',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.git-credentials',
  '~/.bashrc',
  '~/.zshrc',
  '~/.profile',
  '/etc/shadow',
  '/etc/sudoers',
  '/root/.ssh/id_rsa',
  '{ws}/.env',
  '{ws}/.git/config',
  '{ws}/.git/hooks/pre-commit',
  '{ws}/.claude/settings.json',
  '{ws}/.mcp.json',
];

/** Shell glob options that change what a pattern matches. */
export interface GlobMatchOptions {
  dotglob?: boolean;
  nocaseglob?: boolean;
}
const NO_GLOB_OPTIONS: GlobMatchOptions = {};

export interface ClassifierOptions {
  home: string;
  workspaceRoots: string[];
  tempDirs?: string[];
  /** How long realpaths read from disk may be reused, in ms (default 0: read for every analysis). */
  realpathTtlMs?: number;
}

export class PathClassifier {
  readonly workspaceRoots: string[];
  readonly tempDirs: string[];
  private readonly home: string;
  private readonly sensitive: (p: string) => boolean;
  private readonly sensitiveExamples: string[];
  private readonly realpaths: RealpathCache;

  constructor(opts: ClassifierOptions) {
    this.home = opts.home.replace(/\/+$/, '') || '/';
    this.realpaths = new RealpathCache(opts.realpathTtlMs ?? 0);
    this.workspaceRoots = opts.workspaceRoots.map((r) => realpathNearest(r));
    const temps = opts.tempDirs ?? ['/tmp', '/var/tmp', tmpdir()];
    this.tempDirs = [...new Set(temps.map((t) => realpathNearest(t)))];
    const patterns = SENSITIVE_PATTERNS.map((p) => this.withHome(p));
    // One alternation instead of ~40 matchers tried in turn: classification runs for every path.
    const combined = new RegExp(patterns.map((p) => picomatch.makeRe(p, { dot: true }).source).join('|'));
    this.sensitive = (p: string) => combined.test(p);
    const ws = this.workspaceRoots[0] ?? '/workspace';
    this.sensitiveExamples = SENSITIVE_EXAMPLES.map((e) => this.withHome(e).replace('{ws}', ws));
  }

  private withHome(p: string): string {
    return p.startsWith('~') ? this.home + p.slice(1) : p;
  }

  /** Called when an analysis starts: realpaths older than the reuse window are read again. */
  startAnalysis(): void {
    this.realpaths.startAnalysis();
  }

  /**
   * Classes of an absolute path (or glob pattern over absolute paths). For a glob, `options` are
   * the shell's glob options that may be on (`dotglob`: `*` matches dot files; `nocaseglob`).
   */
  classify(path: string, glob: boolean, options: GlobMatchOptions = NO_GLOB_OPTIONS): PathClass[] {
    if (!glob) return this.classifyOne(path, false, options);
    // `.*` may match `..`: what the pattern reaches through a parent is classified too.
    const readings = parentReadings(path);
    if (readings.length === 0) return this.classifyOne(path, true, options);
    const classes = new Set(this.classifyOne(path, true, options));
    for (const r of readings) for (const c of this.classifyOne(r, /[*?[]/.test(r), options)) classes.add(c);
    return [...classes];
  }

  private classifyOne(path: string, glob: boolean, options: GlobMatchOptions): PathClass[] {
    const classes = new Set<PathClass>();
    // /dev/stdin, /dev/stderr, /dev/fd/N are links to this process's descriptors: classify as written.
    if (!glob && SPECIAL_DEVICES.test(path)) return ['special-device'];
    const bound = glob ? staticPrefix(path) : path;
    const real = this.realpaths.realpathNearest(bound);
    const where: PathClass = this.workspaceRoots.some((r) => isInside(real, r))
      ? 'workspace'
      : this.tempDirs.some((t) => isInside(real, t))
        ? 'temp'
        : 'outside';
    classes.add(where);
    if (SPECIAL_DEVICES.test(real)) return ['special-device'];
    if (real === '/' || (glob && bound === '/')) classes.add('root');
    if (real === this.home || (glob && bound === this.home)) classes.add('home');
    if (isInside(real, '/dev')) classes.add('device');
    else if (SYSTEM_DIRS.some((d) => isInside(real, d)) && where === 'outside') classes.add('system');
    if (glob && bound === '/' && classes.has('outside')) classes.add('system');
    if (this.sensitive(real) || this.sensitive(path) || (glob && this.globMaySensitive(path, options))) classes.add('sensitive');
    return [...classes];
  }

  private readonly globCache = new Map<string, boolean>();

  private globMaySensitive(pattern: string, options: GlobMatchOptions): boolean {
    const key = `${options.dotglob ? 'd' : ''}${options.nocaseglob ? 'i' : ''}\0${pattern}`;
    const cached = this.globCache.get(key);
    if (cached !== undefined) return cached;
    if (this.globCache.size > 5000) this.globCache.clear();
    const result = this.globMatchesExample(pattern, options);
    this.globCache.set(key, result);
    return result;
  }

  private globMatchesExample(pattern: string, options: GlobMatchOptions): boolean {
    let m: (p: string) => boolean;
    try {
      // bash's `*` skips dot files (unless dotglob); find's `{}` placeholder (`root/**`) does not.
      m = picomatch(pattern, { dot: pattern.includes('**') || !!options.dotglob, nocase: !!options.nocaseglob });
    } catch {
      return true;
    }
    return this.sensitiveExamples.some((e) => m(e));
  }
}
