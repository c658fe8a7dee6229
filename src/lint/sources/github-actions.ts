/**
 * GitHub Actions: the `run:` steps of a workflow (`.github/workflows/*.yml`) and of a composite
 * action (`action.yml`), with the shell and directory GitHub runs each in, and the untrusted
 * `${{ … }}` values GitHub pastes into a script before the shell reads it.
 */
import { posix } from 'node:path';
import { isAlias, type Document } from 'yaml';
import { lintMessage } from '../lint-rules.js';
import { type MappedText } from '../source-text.js';
import { substituteExpressions } from './ci-expressions.js';
import { untrustedContext } from './github-contexts.js';
import type { Extracted, Snippet, SourceFinding, SourceKind } from './types.js';
import { entries, get, isScalar, isSeq, parseYaml, scalarText, str, type Node } from './yaml-text.js';

const WORKFLOW = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/;
const ACTION = /(^|\/)action\.ya?ml$/;
/** The variable that stands for an expression's value; a suffix keeps it apart from the script's own names. */
const EXPR_VAR = 'SHELLGATE_GHA_EXPR';

export const githubActions: SourceKind = {
  name: 'github-actions',
  matches: (path) => WORKFLOW.test(path) || ACTION.test(path),
  extract(text, path) {
    return extract(text, WORKFLOW.test(path) ? 'workflow' : 'action');
  },
};

interface Context {
  file: string;
  doc: Document.Parsed;
  snippets: Snippet[];
  findings: SourceFinding[];
}

function extract(file: string, kind: 'workflow' | 'action'): Extracted {
  const parsed = parseYaml(file, kind === 'workflow' ? 'a GitHub Actions workflow' : 'a GitHub Actions action');
  if (!parsed.doc) return { snippets: [], findings: parsed.findings };
  const cx: Context = { file, doc: parsed.doc, snippets: [], findings: [] };
  const root = parsed.doc.contents;
  if (kind === 'workflow') {
    const workflowRun = at(cx, at(cx, root, 'defaults'), 'run');
    for (const [id, , job] of entries(at(cx, root, 'jobs'))) {
      const jobRun = at(cx, at(cx, job, 'defaults'), 'run');
      const runsOn = at(cx, job, 'runs-on');
      steps(cx, at(cx, job, 'steps'), `jobs.${id}`, {
        shell: str(at(cx, jobRun, 'shell')) ?? str(at(cx, workflowRun, 'shell')) ?? defaultShell(cx, runsOn),
        workingDirectory: str(at(cx, jobRun, 'working-directory')) ?? str(at(cx, workflowRun, 'working-directory')),
        // Steps start in $GITHUB_WORKSPACE, the repository root: two levels above .github/workflows.
        root: '../..',
      });
    }
  } else {
    // A composite action runs in the calling workflow's workspace, which is not this file's
    // repository: where that is relative to this file is unknown. Its `shell:` is required.
    steps(cx, at(cx, at(cx, root, 'runs'), 'steps'), 'runs', { shell: 'bash', root: undefined });
  }
  return { snippets: cx.snippets, findings: cx.findings };
}

interface Defaults {
  shell: string;
  workingDirectory?: string;
  /** The workspace root relative to the file's directory, when known. */
  root: string | undefined;
}

function steps(cx: Context, list: Node | undefined, where: string, defaults: Defaults): void {
  if (!isSeq(list)) return;
  list.items.forEach((item, i) => {
    const step = deref(cx, item as Node);
    const label = str(at(cx, step, 'name')) ?? str(at(cx, step, 'id'));
    const origin = `${where}.steps[${i}]${label ? ` (${label})` : ''}`;
    const run = at(cx, step, 'run');
    if (isScalar(run) && run.value !== null) {
      const shell = str(at(cx, step, 'shell')) ?? defaults.shell;
      const dir = str(at(cx, step, 'working-directory')) ?? defaults.workingDirectory;
      const code = spliced(cx, scalarText(cx.file, run), '');
      cx.snippets.push({ ...code, origin: `${origin}.run`, shell: shellName(shell), where: 'host', ...cwdOf(defaults.root, dir) });
    }
    // actions/github-script runs `with.script` as JavaScript: the same splice is a code injection there.
    const uses = str(at(cx, step, 'uses'));
    const script = at(cx, at(cx, step, 'with'), 'script');
    if (uses && /^actions\/github-script(@|$)/i.test(uses) && isScalar(script)) {
      spliced(cx, scalarText(cx.file, script), ', in JavaScript run by actions/github-script');
    }
  });
}

/** The code with each `${{ … }}` replaced by an unknown word, reporting those that read untrusted values. */
function spliced(cx: Context, code: MappedText, inWhat: string): MappedText {
  const { code: out, expressions } = substituteExpressions(code, '${{', EXPR_VAR);
  for (const e of expressions) {
    const context = untrustedContext(e.inner);
    if (!context) continue;
    cx.findings.push({
      rule: 'lint/script-injection',
      level: 'deny',
      message: lintMessage('lint/script-injection', context + inWhat),
      start: e.start,
      end: e.end,
    });
  }
  return out;
}

/** Windows runners run `run:` with PowerShell unless told otherwise; every other runner uses bash. */
function defaultShell(cx: Context, runsOn: Node | undefined): string {
  const labels: string[] = [];
  const collect = (n: Node | undefined) => {
    const s = str(n);
    if (s !== undefined) labels.push(s);
    else if (isSeq(n)) n.items.forEach((x) => collect(deref(cx, x as Node)));
  };
  collect(runsOn);
  collect(at(cx, runsOn, 'labels'));
  // A label given by an expression (`${{ matrix.os }}`) may be Windows or not: the step runs under
  // bash on every other runner, so bash is what can be checked.
  return labels.some((l) => /windows/i.test(l) && !l.includes('${{')) ? 'pwsh' : 'bash';
}

/**
 * The program named by `shell:`: a built-in name (`bash`, `pwsh`, `python`) or a custom command
 * line (`bash --noprofile -eo pipefail {0}`, `/usr/bin/perl {0}`) by its program's base name. A
 * shell chosen by an expression is unknown and kept as written.
 */
export function shellName(shell: string): string {
  const s = shell.trim();
  if (s.includes('${{')) return s;
  const program = s.split(/\s+/)[0] ?? '';
  return (program.split(/[/\\]/).pop() ?? program).replace(/\.exe$/i, '') || 'bash';
}

/**
 * The step's directory relative to the file's: the workspace root joined with `working-directory`
 * (which GitHub reads relative to the workspace). Unknown when the root is, or when the directory
 * is an expression.
 */
function cwdOf(root: string | undefined, dir: string | undefined): { cwd?: string } {
  if (dir !== undefined && dir.includes('${{')) return {};
  if (dir !== undefined && dir.startsWith('/')) return { cwd: dir };
  if (root === undefined) return {};
  const joined = posix.join(root, dir ?? '.').replace(/(.)\/+$/, '$1');
  return { cwd: joined };
}

/** A node with aliases followed (GitHub reads YAML anchors). */
function deref(cx: Context, node: Node | null | undefined): Node | undefined {
  if (node && isAlias(node)) return (node.resolve(cx.doc) ?? undefined) as Node | undefined;
  return node ?? undefined;
}

function at(cx: Context, node: Node | null | undefined, key: string): Node | undefined {
  return deref(cx, get(deref(cx, node), key));
}
