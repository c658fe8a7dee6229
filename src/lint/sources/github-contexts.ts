/**
 * Which values a GitHub Actions expression can read that an outsider writes: the knowledge behind
 * `lint/script-injection`, in one place. Source: GitHub's security hardening guide, "Understanding
 * the risk of script injections" (its list of untrusted input), generalised by field name so the
 * same field under another event (a `check_suite.head_branch`, a `merge_group.head_commit.message`)
 * counts too.
 *
 * Deliberately not untrusted:
 * - `github.ref`, `github.ref_name`, `github.event.ref`: a branch or tag of the repository itself,
 *   pushed by someone with write access (for a pull request GitHub sets `refs/pull/N/merge`). The
 *   branch a pull request comes from is `github.head_ref` / `…head.ref`, which is flagged.
 * - `inputs.*`, `github.event.inputs.*`: a `workflow_dispatch` is started by someone with write
 *   access; a reusable workflow's or composite action's inputs are chosen by the calling workflow,
 *   which is checked where it splices the untrusted value itself.
 * - `env.*`, `steps.*.outputs.*`, `needs.*.outputs.*`, `vars.*`, `matrix.*`: they may carry
 *   untrusted text copied there earlier, but following that flow is beyond a per-expression check;
 *   they are replaced by an unknown word like every expression.
 * - logins, labels, shas, numbers, URLs, repository names: GitHub restricts them to characters
 *   that cannot form shell syntax, or only people with write or triage access choose them.
 */

/** The untrusted inputs GitHub's guide lists (`*`: any one element of a list). */
export const DOCUMENTED_UNTRUSTED = [
  'github.head_ref',
  'github.event.issue.title',
  'github.event.issue.body',
  'github.event.pull_request.title',
  'github.event.pull_request.body',
  'github.event.pull_request.head.ref',
  'github.event.pull_request.head.label',
  'github.event.pull_request.head.repo.default_branch',
  'github.event.comment.body',
  'github.event.review.body',
  'github.event.review_comment.body',
  'github.event.discussion.title',
  'github.event.discussion.body',
  'github.event.pages.*.page_name',
  'github.event.commits.*.message',
  'github.event.commits.*.author.email',
  'github.event.commits.*.author.name',
  'github.event.head_commit.message',
  'github.event.head_commit.author.email',
  'github.event.head_commit.author.name',
  'github.event.workflow_run.head_branch',
  'github.event.workflow_run.head_commit.message',
  'github.event.workflow_run.head_commit.author.email',
  'github.event.workflow_run.head_commit.author.name',
  'github.event.workflow_run.pull_requests.*.head.branch',
  'github.event.workflow_run.head_repository.description',
].map((p) => p.split('.'));

/** Fields that hold free text wherever they appear in an event: whoever writes the issue, comment or commit chooses it. */
const FREE_TEXT = new Set(['title', 'body', 'message', 'page_name', 'head_ref', 'head_branch', 'display_title']);

/**
 * Whether an event field (segments after `github.event`) is written by an outsider: free text,
 * a commit's author or committer identity (set by whoever makes the commit), or the branch, label
 * or repository details of a pull request's head (a fork's, named by its owner).
 */
function untrustedEventField(path: string[]): boolean {
  const n = path.length;
  const last = path[n - 1]!;
  const parent = path[n - 2];
  if (FREE_TEXT.has(last)) return true;
  if ((parent === 'author' || parent === 'committer') && (last === 'name' || last === 'email')) return true;
  if (parent === 'head' && (last === 'ref' || last === 'label' || last === 'branch')) return true;
  if (parent === 'repo' || parent === 'head_repository')
    return (last === 'default_branch' || last === 'description') && (parent !== 'repo' || path[n - 3] === 'head');
  return false;
}

function segmentsMatch(pattern: string, segment: string): boolean {
  return pattern === segment || pattern === '*';
}

/**
 * The untrusted context a property path reads (`github.event.issue.title`), or undefined. The
 * path is lower case, list indexes as `*`. An object that holds untrusted fields counts too:
 * `toJSON(github.event.pull_request)` pastes the title and body with the rest.
 */
export function untrustedPath(path: string[]): string | undefined {
  const joined = path.join('.');
  if (path[0] !== 'github') return undefined;
  if (path.length === 1) return joined;
  if (path[1] === 'head_ref' && path.length === 2) return joined;
  if (path[1] !== 'event') return undefined;
  if (path.length === 2) return joined;
  const field = path.slice(2);
  // A workflow_dispatch's inputs are typed by someone with write access (see above).
  if (field[0] === 'inputs') return undefined;
  if (untrustedEventField(field)) return joined;
  // An object on the way to a documented untrusted field: serialised whole, it carries that field.
  const container = DOCUMENTED_UNTRUSTED.some((p) => p.length > path.length && path.every((s, i) => segmentsMatch(p[i]!, s) || s === '*'));
  return container ? joined : undefined;
}

/** Every property path an expression reads, lower case, with list indexes and computed keys as `*`. */
export function contextPaths(expr: string): string[][] {
  const paths: string[][] = [];
  let i = 0;
  const n = expr.length;
  const skipSpace = () => {
    while (i < n && /\s/.test(expr[i]!)) i++;
  };
  while (i < n) {
    const c = expr[i]!;
    if (c === "'") {
      // A string literal: `''` is an escaped quote, so scanning to each next quote is enough.
      const end = expr.indexOf("'", i + 1);
      i = end < 0 ? n : end + 1;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(expr.slice(i));
    if (!id || (i > 0 && /[A-Za-z0-9_.\]-]/.test(expr[i - 1]!))) {
      i += id ? id[0].length : 1;
      continue;
    }
    i += id[0].length;
    const path = [id[0].toLowerCase()];
    for (;;) {
      const save = i;
      skipSpace();
      if (expr[i] === '.') {
        i++;
        skipSpace();
        const m = /^(\*|[A-Za-z0-9_-]+)/.exec(expr.slice(i));
        if (!m) break;
        path.push(/^\d+$/.test(m[0]) ? '*' : m[0].toLowerCase());
        i += m[0].length;
      } else if (expr[i] === '[') {
        const close = bracketEnd(expr, i);
        const key = expr
          .slice(i + 1, close - 1)
          .trim()
          .match(/^'((?:[^']|'')*)'$/);
        path.push(key ? key[1]!.replace(/''/g, "'").toLowerCase() : '*');
        // A computed index is itself an expression: scan it for paths too.
        if (!key) paths.push(...contextPaths(expr.slice(i + 1, close - 1)));
        i = close;
      } else {
        i = save;
        break;
      }
    }
    skipSpace();
    // A function name (`toJSON(`) is not a context; true/false/null are literals.
    if (expr[i] === '(' || (path.length === 1 && /^(true|false|null|nan|infinity)$/.test(path[0]!))) continue;
    paths.push(path);
  }
  return paths;
}

/** Index just past the `]` matching the `[` at `open` (strings and nesting respected), or the end. */
function bracketEnd(expr: string, open: number): number {
  let depth = 0;
  for (let i = open; i < expr.length; i++) {
    const c = expr[i];
    if (c === "'") {
      const end = expr.indexOf("'", i + 1);
      if (end < 0) return expr.length;
      i = end;
    } else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i + 1;
  }
  return expr.length;
}

/** The first untrusted context an expression reads, or undefined. */
export function untrustedContext(expr: string): string | undefined {
  for (const path of contextPaths(expr)) {
    const found = untrustedPath(path);
    if (found) return found;
  }
  return undefined;
}
