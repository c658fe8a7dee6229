/**
 * The operation builder: turns a command's words into classified operations (paths resolved
 * against the command's cwd, through links made earlier on the line). commandFacts drives it;
 * program hooks (programs/hooks/) and the ops/ helpers use it through OperationSink.
 */
import type { Span } from '../syntax/ast.js';
import type { Arg, WalkedCommand } from '../walk/types.js';
import { PROC_SUBST_WORD } from '../expand/word.js';
import type { GlobMatchOptions, PathClass, PathClassifier } from '../paths/classify.js';
import type { LineLinks } from '../paths/line-links.js';
import type { MadeView } from '../paths/readings.js';
import { resolvePath, staticPrefix } from '../paths/resolve.js';
import { posix } from 'node:path';
import type { SpecTable } from '../programs/load-specs.js';
import type { ArgRole } from '../programs/spec-types.js';
import type { OperationSink, OpSource, RecursiveWalk } from '../programs/hook-types.js';
import { recursiveRead } from './recursive-read.js';
import type { Operation, OpKind, OpOrigin } from './types.js';

export interface OpsEnv {
  specs: SpecTable;
  classifier: PathClassifier;
  home: string;
  /** The analysis context's environment (where git, cargo… look for their configuration). */
  vars?: Readonly<Record<string, string | undefined>>;
  /** Links and directories made earlier on the line (paths are resolved through them). */
  links?: LineLinks;
  /** Text of a script file a program runs (`sed -f F`, `awk -f F`), bounded like `source`; null when unreadable. */
  readScript: (path: string) => string | null;
}

/** An option an allow rule must name to cover (spec `named`, find's `-delete`/`-exec`). */
export interface NamedOption {
  option: string;
  why: string;
  span: Span;
}

/** An option the program's description does not list, or a word that may be one. */
export interface UnknownOption {
  /** The option as read (`-x`, `--frob`), or the dynamic word as written. */
  option: string;
  /** The word it came from (`-lax`), when that differs. */
  word: string;
  /** Program and subcommands whose table was consulted (`git log`). */
  program: string;
  /** The documentation the table was checked against, when it is complete. */
  checkedAgainst: string | null;
  /** A word only known at run time that may expand to an option. */
  dynamic: boolean;
  span: Span;
}

/** Builds operations for one command; handlers use it too. */
export class OpBuilder implements OperationSink {
  readonly ops: Operation[] = [];
  readonly unknownOptions: UnknownOption[] = [];
  readonly namedOptions: NamedOption[] = [];
  /** Stamped on every operation added (explain shows where each came from). */
  private origin: OpOrigin | undefined;
  /** The directory paths resolve in: the command's, or the one a `chdir` option names (`within`). */
  private dir: { cwd: string | null } | undefined;
  constructor(
    readonly cmd: WalkedCommand,
    readonly env: OpsEnv,
  ) {}

  /** The directory relative paths resolve in (null: unknown). */
  get cwd(): string | null {
    return this.dir !== undefined ? this.dir.cwd : this.cmd.cwd;
  }

  /** Runs `make` with relative paths resolved in `cwd` (the program changed there: `make -C DIR`). */
  within<T>(cwd: string | null, make: () => T): T {
    const outer = this.dir;
    this.dir = { cwd };
    try {
      return make();
    } finally {
      this.dir = outer;
    }
  }

  add(kind: OpKind, source: Operation['source'], span: Span, extra: Partial<Operation> = {}): void {
    const op: Operation = { kind, command: this.cmd.id, source, dynamic: false, glob: false, span, ...extra };
    if (this.origin !== undefined && op.origin === undefined) op.origin = this.origin;
    this.ops.push(op);
  }

  /** Runs `make` with `origin` stamped on the operations it adds (the innermost origin wins). */
  from<T>(origin: OpOrigin, make: () => T): T {
    const outer = this.origin;
    this.origin = origin;
    try {
      return make();
    } finally {
      this.origin = outer;
    }
  }

  /** A path operation for `arg`, resolved against the command's cwd and classified (`extra`: stamped on each). */
  path(kind: OpKind, arg: Arg, source: Operation['source'], extra: Partial<Operation> = {}): void {
    // A program's `-` operand is its stdin or stdout; a redirection's `-` is a file named `-`
    // (`echo x >-` creates it), and nothing deletes or runs stdin.
    const redirect = source === 'redirect';
    if (arg.value === '-' && !arg.dynamic && !redirect && (kind === 'Read' || kind === 'Write')) return;
    if (PROC_SUBST_WORD.test(arg.value)) arg = { ...arg, value: '/dev/fd/63' }; // a pipe from `<(…)`
    // `host:path` is remote only where a program reads it so (scp, rsync); a redirection opens a local file
    const remoteSpec = redirect ? null : /^(?:[A-Za-z0-9_.-]+@)?([A-Za-z0-9_.-]+):(?!\/\/)/.exec(arg.value);
    if (remoteSpec && !arg.value.startsWith('/') && !arg.value.startsWith('.') && (kind === 'Read' || kind === 'Write')) {
      // `host:path` (scp, rsync): the path is on another machine.
      this.add('Network', source, arg.span, { host: remoteSpec[1], target: arg.value });
      return;
    }
    if (this.cmd.context.remote) {
      this.add(kind, source, arg.span, { target: arg.value, host: this.cmd.context.remote, dynamic: arg.dynamic, glob: arg.glob });
      return;
    }
    const cwd = this.cwd;
    if (arg.dynamic || (cwd === null && !arg.value.startsWith('/'))) {
      this.add(kind, source, arg.span, { target: arg.value, dynamic: true, glob: arg.glob });
      return;
    }
    if (arg.splitAt !== undefined && !this.namesStayWhole(arg, cwd ?? '/')) {
      this.add(kind, source, arg.span, { target: arg.value, dynamic: true, glob: arg.glob, splitNames: true });
      return;
    }
    // Deleting acts on the name: `rm link` removes the link, `rm -rf link/` what it points to.
    const follow = kind !== 'Delete' || /\/$/.test(arg.value);
    // Every reading the kernel may take (a link made earlier on the line may or may not exist):
    // each is an operation of its own, so the strictest decides.
    for (const r of this.readings(arg.value, cwd ?? '/', arg.glob, kind === 'Delete' ? 'delete' : 'follow')) {
      if (r.path === undefined) {
        this.add(kind, source, arg.span, { target: arg.value, dynamic: true, glob: arg.glob });
        continue;
      }
      const options = this.globOptions(arg);
      this.add(kind, source, arg.span, {
        path: r.path,
        target: arg.value,
        glob: arg.glob,
        ...(arg.glob && options?.dotglob ? { dotGlob: true } : {}),
        ...(arg.splitAt !== undefined ? { splitWhole: true } : {}),
        classes: this.env.classifier.classify(r.path, arg.glob, follow, options),
        ...extra,
      });
    }
  }

  /** Split names (`find . | xargs cat`) are whole when no name under the pattern's directory holds a separator. */
  private namesStayWhole(arg: Arg, cwd: string): boolean {
    const prefix = staticPrefix(arg.value.startsWith('/') ? arg.value : posix.join(cwd, arg.value));
    return this.env.classifier.namesStayWhole(prefix, arg.splitAt!);
  }

  private readings(value: string, cwd: string, glob: boolean, kind: 'follow' | 'delete') {
    return this.env.classifier.readings(value, cwd, this.madeView(), glob, kind);
  }

  /**
   * The glob options the line may have turned on before this command (`shopt -s dotglob`); a
   * pattern for produced paths (find's `{}`) matches dot names whatever the shell's options.
   */
  private globOptions(arg: Arg): GlobMatchOptions | undefined {
    const o = this.cmd.globOptions;
    if (arg.produced) return { dotglob: true, produced: true, nocaseglob: o.has('nocaseglob') };
    return o.size === 0 ? undefined : { dotglob: o.has('dotglob'), nocaseglob: o.has('nocaseglob') };
  }

  private madeView(): MadeView | null {
    return this.env.links === undefined || this.env.links.empty ? null : this.env.links.viewFor(this.cmd, this.env.classifier);
  }

  /**
   * Is `arg` a directory (on disk or made earlier on the line)? The working directory, the
   * workspace roots and home are, whether or not they exist here. Null: some reading may be one.
   */
  isDirectory(arg: Arg): boolean | null {
    if (arg.dynamic || arg.glob) return null;
    const cwd = this.cwd;
    if (cwd === null && !arg.value.startsWith('/')) return null;
    let answer: boolean | null = false;
    const made = this.madeView();
    for (const r of this.readings(arg.value, cwd ?? '/', false, 'follow')) {
      if (r.path === undefined) return null;
      const real = this.env.classifier.physical(r.path);
      if (r.path === cwd || r.path === this.env.home || this.env.classifier.workspaceRoots.includes(real) || this.env.classifier.isDirectory(real)) return true;
      const dir = made?.entries.find((e) => e.path === real && (e.kind === 'dir' || e.kind === 'mirror'));
      if (dir) answer = dir.certain ? true : null;
    }
    return answer;
  }

  /** What `scan` finds in the tree a source names (resolved like any path); null: too large or unknown. */
  treeBelow(arg: Arg, scan: (dir: string) => string[] | null): string[] | null {
    if (arg.dynamic) return null;
    const cwd = this.cwd;
    if (cwd === null && !arg.value.startsWith('/')) return null;
    const out: string[] = [];
    for (const r of this.readings(arg.value, cwd ?? '/', false, 'follow')) {
      if (r.path === undefined) return null;
      const found = scan(this.env.classifier.physical(r.path));
      if (found === null) return null;
      out.push(...found);
    }
    return [...new Set(out)];
  }

  /** The single path the kernel reaches for `value` (symlinks followed); null when it is not one known path. */
  physicalOf(value: string): string | null {
    const cwd = this.cwd;
    if (cwd === null && !value.startsWith('/')) return null;
    const readings = this.readings(value, cwd ?? '/', false, 'follow');
    return readings.length === 1 && readings[0].path !== undefined ? this.env.classifier.physical(readings[0].path) : null;
  }

  /** Classes of every reading of `value` (relative to the command's cwd); null when one is unknown. */
  classesOf(value: string): PathClass[] | null {
    const cwd = this.cwd;
    if (cwd === null && !value.startsWith('/')) return null;
    const out = new Set<PathClass>();
    for (const r of this.readings(value, cwd ?? '/', false, 'follow')) {
      if (r.path === undefined) return null;
      for (const c of this.env.classifier.classify(r.path, false)) out.add(c);
    }
    return [...out];
  }

  /** Classes of every reading of a directory this command works in; null when one is unknown. */
  directoryClasses(dir: string): PathClass[] | null {
    const out = new Set<PathClass>();
    for (const r of this.readings(dir, '/', false, 'follow')) {
      if (r.path === undefined) return null;
      for (const c of this.env.classifier.classify(r.path, false)) out.add(c);
    }
    return [...out];
  }

  /** An option that changes what the program is: an allow rule must name it. */
  namedOption(option: string, word: Arg, why: string): void {
    this.namedOptions.push({ option, why, span: word.span });
  }

  /** An option the program's table does not list (or a dynamic word that may be one). */
  unknownOption(option: string, word: Arg, program: string, checkedAgainst: string | null = null, dynamic = false): void {
    this.unknownOptions.push({ option, word: word.value, program, checkedAgainst, dynamic, span: word.span });
  }

  /** A script named by `-f FILE` (sed, awk): its text when it can be read, else null. */
  scriptText(file: Arg): string | null {
    if (file.fileText !== undefined) return file.fileText; // `-f <(echo …)`
    if (file.dynamic || file.glob) return null;
    if (file.value === '-' || /^\/dev\/(stdin|fd\/0)$/.test(file.value)) return this.cmd.stdinText;
    if (this.cwd === null && !file.value.startsWith('/')) return null;
    return this.env.readScript(resolvePath(file.value, this.cwd ?? '/'));
  }

  /** A read of `arg` and of what a recursive walk below it reaches (ops/recursive-read.ts). */
  recursiveRead(arg: Arg, walk: RecursiveWalk, source: OpSource): void {
    recursiveRead(this, arg, walk, source);
  }

  /** A fixed file the program prints or sends (`~/.aws/credentials`). */
  fixedRead(path: string, source: Operation['source']): void {
    const value = path.startsWith('~/') ? `${this.env.home.replace(/\/+$/, '')}/${path.slice(2)}` : path;
    this.path('Read', { value, dynamic: false, glob: false, span: this.cmd.span }, source);
  }

  /** A file or directory the program writes whatever its operands (a spec's `writes`); `*` stands for any name. */
  fixedWrite(path: string, source: Operation['source']): void {
    const value = path.startsWith('~/') ? `${this.env.home.replace(/\/+$/, '')}/${path.slice(2)}` : path;
    this.path('Write', { value, dynamic: false, glob: value.includes('*'), span: this.cmd.span }, source);
  }

  role(role: ArgRole, arg: Arg, source: Operation['source']): void {
    switch (role) {
      case 'read':
        return this.path('Read', arg, source);
      case 'write':
      case 'append':
        return this.path('Write', arg, source);
      case 'delete':
        return this.path('Delete', arg, source);
      case 'list':
        return this.path('List', arg, source);
      case 'exec':
        // A script operand (`python x.py`) is a file; an option value (`-m module`, `--pre prog`) names a program.
        if (source === 'operand') return this.path('Exec', arg, source);
        return this.add('Exec', source, arg.span, { program: arg.value, target: arg.value, dynamic: arg.dynamic });
      case 'shell-string':
        // A command line the program hands to a shell (`tar --to-command=CMD`); the walker walks it too.
        return this.add('Exec', source, arg.span, { program: arg.value, target: arg.value, dynamic: arg.dynamic });
      case 'url':
        return this.add('Network', source, arg.span, { url: arg.value, host: hostOf(arg.value), target: arg.value, dynamic: arg.dynamic });
      case 'host':
        return this.add('Network', source, arg.span, { host: arg.value.replace(/^[^@]*@/, ''), target: arg.value, dynamic: arg.dynamic });
      default:
        return;
    }
  }
}

export function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]+)/i.exec(url);
  if (m) return m[1].toLowerCase();
  const bare = /^(?:[^@/]*@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}|\d+\.\d+\.\d+\.\d+|localhost)(?::\d+)?(?:\/|$)/.exec(url);
  return bare ? bare[1].toLowerCase() : undefined;
}
