/**
 * GitLab CI: the `script`, `before_script`, `after_script` and `hooks:pre_get_sources_script` of
 * each job in a `.gitlab-ci.yml` (or `*.gitlab-ci.yml`), of `default:`, and the deprecated
 * top-level ones. The runner writes a key's lines into one shell script, so each key is one
 * snippet: a `cd` or a variable set on one line holds on the next.
 */
import { isAlias, isMap, type Document } from 'yaml';
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { freshName, substituteExpressions } from './ci-expressions.js';
import type { Extracted, Snippet, SourceKind } from './types.js';
import { isScalar, isSeq, parseYaml, scalarText, type Node } from './yaml-text.js';

const GITLAB = /(^|\/)[^/]*\.gitlab-ci\.ya?ml$/;
/** Stand-ins for values not in this file: a `$[[ inputs.x ]]` and a `!reference` to another file. */
const INPUT_VAR = 'SHELLGATE_GITLAB_INPUT';
const REFERENCE_VAR = 'SHELLGATE_GITLAB_REFERENCE';

/**
 * Top-level keys that are not jobs (GitLab's CI/CD YAML reference: the global keywords, the `spec`
 * header, and the job defaults once allowed at the top level). `pages` is a job.
 */
const GLOBAL_KEYWORDS = new Set([
  'default',
  'include',
  'stages',
  'variables',
  'workflow',
  'spec',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
]);
/** The keys holding shell lines, in a job or in `default:`. */
const SCRIPT_KEYS = ['before_script', 'script', 'after_script'];
/** GitLab resolves `!reference` tags nested 10 deep; lists from anchors nest a few levels. */
const MAX_NESTING = 32;

export const gitlabCi: SourceKind = {
  name: 'gitlab-ci',
  matches: (path) => GITLAB.test(path),
  extract(text) {
    return extract(text);
  },
};

interface Context {
  file: string;
  doc: Document.Parsed;
  root: Node | undefined;
  snippets: Snippet[];
  /** Script nodes already made into a snippet: a YAML anchor reused by many jobs is read once, where it is written. */
  seen: Set<Node>;
}

function extract(file: string): Extracted {
  const parsed = parseYaml(withoutSpecHeader(file), 'GitLab CI YAML');
  if (!parsed.doc) return { snippets: [], findings: parsed.findings };
  const root = parsed.doc.contents ?? undefined;
  const cx: Context = { file, doc: parsed.doc, root, snippets: [], seen: new Set() };
  for (const [name, value] of pairs(cx, root)) {
    if (name === 'before_script' || name === 'after_script') script(cx, value, name);
    else if (name === 'default') scriptsOf(cx, value, 'default');
    // A hidden job (`.name`) never runs itself, but its lines run in every job that extends or references it.
    else if (!GLOBAL_KEYWORDS.has(name)) scriptsOf(cx, value, name, name.startsWith('.') ? ' (hidden job: a template)' : '');
  }
  return { snippets: cx.snippets, findings: [] };
}

/**
 * A file that declares inputs starts with a `spec:` document, then `---` and the configuration.
 * The header holds no commands; it is blanked (line breaks kept, so offsets stay exact) and the
 * rest read as a single document.
 */
function withoutSpecHeader(file: string): string {
  if (!/^(?:[ \t]*(?:#[^\n]*)?\r?\n)*spec[ \t]*:/.test(file)) return file;
  const sep = /^---[ \t]*(#.*)?$/m.exec(file);
  if (!sep) return file;
  const end = sep.index + sep[0].length;
  return file.slice(0, end).replace(/[^\n]/g, ' ') + file.slice(end);
}

function scriptsOf(cx: Context, job: Node | undefined, name: string, note = ''): void {
  if (!isMap(job)) return;
  for (const key of SCRIPT_KEYS) script(cx, lookup(cx, job, key), `${name}.${key}${note}`);
  script(cx, lookup(cx, lookup(cx, job, 'hooks'), 'pre_get_sources_script'), `${name}.hooks.pre_get_sources_script${note}`);
}

/** One snippet for a script key: its lines (a string, or a list, nested lists flattened) joined by line breaks. */
function script(cx: Context, node: Node | undefined, origin: string): void {
  if (!node || cx.seen.has(node)) return;
  cx.seen.add(node);
  const lines: MappedText[] = [];
  flatten(cx, node, lines, 0);
  if (lines.length === 0) return;
  const out = new MappedTextBuilder();
  lines.forEach((line, i) => {
    if (i > 0) out.synthetic('\n', lines[i - 1]!.offsets[lines[i - 1]!.text.length]!);
    out.mapped(line);
  });
  const { code } = substituteExpressions(out.build(), '$[[', INPUT_VAR);
  // Jobs often run in a container, but a shell executor runs them on the runner's host: host is
  // the stricter reading. CI_PROJECT_DIR, where scripts start, is the repository root, where this file is.
  cx.snippets.push({ ...code, origin, shell: 'bash', where: 'host', cwd: '.' });
}

/** `resolving`: the references being followed, so one that leads back to itself (an error to GitLab) ends. */
function flatten(cx: Context, node: Node | undefined, lines: MappedText[], depth: number, resolving: Node[] = []): void {
  node = deref(cx, node);
  // Deep enough for any real file; it stops a list that holds an alias to itself.
  if (!node || depth > MAX_NESTING) return;
  if (isSeq(node) && node.tag === '!reference') {
    const target = resolving.includes(node) ? undefined : reference(cx, node);
    if (target) flatten(cx, target, lines, depth + 1, [...resolving, node]);
    else lines.push(unknownReference(cx, node));
  } else if (isSeq(node)) node.items.forEach((item) => flatten(cx, item as Node, lines, depth + 1, resolving));
  else if (isScalar(node) && node.value !== null) lines.push(scalarText(cx.file, node));
}

/** The node a `!reference [.job, key, …]` names in this file, if it is here. */
function reference(cx: Context, node: Node): Node | undefined {
  if (!isSeq(node)) return undefined;
  let at: Node | undefined = cx.root;
  for (const item of node.items) {
    const key = deref(cx, item as Node);
    if (!isScalar(key) || typeof key.value !== 'string') return undefined;
    at = lookup(cx, at, key.value);
  }
  return at === cx.root ? undefined : at;
}

/**
 * A reference to a job in another file (an `include:`) is code this file does not hold: it stands
 * as an unknown command on its own line, at the tag's place, rather than as nothing.
 */
function unknownReference(cx: Context, node: Node): MappedText {
  const [from, end] = node.range ?? [0, 0];
  // The node's range starts at its `[`; the finding reads better at the tag before it.
  const tag = cx.file.lastIndexOf('!reference', from);
  const start = tag >= 0 && !cx.file.slice(tag, from).includes('\n') ? tag : from;
  const name = freshName(cx.file, REFERENCE_VAR);
  return new MappedTextBuilder().synthetic(`\${${name}}`, start, end).build();
}

/** A map's value at `key`, its own entry first, then those merged in with `<<:`. */
function lookup(cx: Context, node: Node | undefined, key: string, depth = 0): Node | undefined {
  node = deref(cx, node);
  if (!isMap(node) || depth > MAX_NESTING) return undefined;
  const merges: Node[] = [];
  for (const pair of node.items) {
    const k = isScalar(pair.key) ? pair.key.value : pair.key;
    if (k === key) return deref(cx, pair.value as Node);
    if (typeof k === 'symbol' || k === '<<') merges.push(pair.value as Node);
  }
  for (const m of merges) {
    const sources = deref(cx, m);
    for (const source of isSeq(sources) ? (sources.items as Node[]) : [sources]) {
      const found = lookup(cx, source, key, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** A map's entries with string keys (merge keys and odd keys skipped). */
function pairs(cx: Context, node: Node | undefined): [string, Node | undefined][] {
  node = deref(cx, node);
  if (!isMap(node)) return [];
  return node.items.flatMap((p) => {
    const k = isScalar(p.key) ? p.key.value : p.key;
    return typeof k === 'string' ? [[k, deref(cx, p.value as Node)] as [string, Node | undefined]] : [];
  });
}

function deref(cx: Context, node: Node | null | undefined): Node | undefined {
  if (node && isAlias(node)) return (node.resolve(cx.doc) ?? undefined) as Node | undefined;
  return node ?? undefined;
}
