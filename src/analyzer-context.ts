/**
 * What the analyser keeps between calls about the context it is given: each context object
 * checked once (and its cache-key prefix), an id per env object for the verdict cache, and one
 * path classifier per home and workspace roots.
 */
import { PathClassifier } from './paths/classify.js';
import { checkContext, sameRoots, type AnalysisContext, type CheckedContext, type ShellDialect } from './analyzer-options.js';

/** Checked contexts and env ids, each remembered per object (the caller's, by identity). */
export class ContextCache {
  // Each env object gets an id: the same object (as a caller passes it call after call) hits the
  // cache. An env changed in place keeps its id, so pass a new object when it changes.
  private readonly envIds = new WeakMap<object, number>();
  private nextEnvId = 0;
  // A context object passed again with the same fields is not checked and normalised again.
  private readonly contexts = new WeakMap<AnalysisContext, CheckedContext>();

  /** `defaultShell`: the analyser's `shell` option, for contexts that name none. */
  constructor(private readonly defaultShell: ShellDialect = 'bash') {}

  /** 0 for an env with no own enumerable field, else the id of this env object. */
  envId(env: object): number {
    let empty = true;
    for (const _ in env) {
      empty = false;
      break;
    }
    if (empty) return 0;
    let id = this.envIds.get(env);
    if (id === undefined) {
      id = ++this.nextEnvId;
      this.envIds.set(env, id);
    }
    return id;
  }

  checked(context: AnalysisContext): CheckedContext {
    const m = this.contexts.get(context);
    if (
      m !== undefined &&
      m.from.cwd === context.cwd &&
      m.from.home === context.home &&
      m.from.env === context.env &&
      m.from.shell === context.shell &&
      sameRoots(m, context.workspaceRoots) &&
      (context.cwd !== undefined || m.processCwd === process.cwd())
    ) {
      return m;
    }
    const ctx = checkContext(context, this.defaultShell);
    const fresh: CheckedContext = {
      ctx,
      prefix: `${ctx.cwd}\0${ctx.workspaceRoots.join('\u0001')}\0${ctx.home}\0${ctx.shell}\0`,
      from: { cwd: context.cwd, home: context.home, env: context.env, workspaceRoots: context.workspaceRoots, shell: context.shell },
      roots: context.workspaceRoots === undefined ? undefined : [...context.workspaceRoots],
      processCwd: context.cwd === undefined ? process.cwd() : null,
    };
    this.contexts.set(context, fresh);
    return fresh;
  }
}

/** One PathClassifier per home and workspace roots (at most 65 kept; then they start over). */
export class ClassifierCache {
  private readonly classifiers = new Map<string, PathClassifier>();

  /** How long a classifier may reuse a realpath: as long as verdicts are cached (0 with the cache off). */
  constructor(private readonly realpathTtlMs: number) {}

  for(ctx: Required<AnalysisContext>): PathClassifier {
    const key = ctx.home + '\0' + ctx.workspaceRoots.join('\0');
    let c = this.classifiers.get(key);
    if (!c) {
      if (this.classifiers.size > 64) this.classifiers.clear();
      c = new PathClassifier({ home: ctx.home, workspaceRoots: ctx.workspaceRoots, realpathTtlMs: this.realpathTtlMs });
      this.classifiers.set(key, c);
    }
    return c;
  }
}
