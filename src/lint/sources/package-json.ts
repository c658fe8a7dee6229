/**
 * package.json: the `scripts` npm runs with `sh -c` in the package's directory. The install
 * lifecycle scripts run on every `npm install` of the package (and of a project that depends on
 * it), with no command typed by anyone: they are marked `lifecycle`.
 */
import { lintMessage } from '../lint-rules.js';
import type { MappedText } from '../source-text.js';
import { jsonStringText } from './json-string.js';
import { entries, isMap, isScalar, parseYaml, scalarText, type Node } from './yaml-text.js';
import type { Extracted, Snippet, SourceFinding, SourceKind } from './types.js';

/**
 * The scripts `npm install` and `npm ci` run in a package (npm docs, "Life Cycle Operation
 * Order": preunpack, preinstall, install, postinstall, prepublish, preprepare, prepare,
 * postprepare), and `dependencies`, run after any install that changes node_modules.
 */
const LIFECYCLE = new Set(['preunpack', 'preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare', 'dependencies']);

export const packageJson: SourceKind = {
  name: 'package-json',
  matches(path) {
    const parts = path.split('/');
    return parts[parts.length - 1] === 'package.json' && !parts.includes('node_modules');
  },
  extract: (text) => extractScripts(text),
};

function extractScripts(text: string): Extracted {
  const parsed = parseYaml(text, 'JSON');
  if (!parsed.doc) return { snippets: [], findings: parsed.findings };
  // npm reads the file with JSON.parse: what YAML accepts beyond JSON (comments, a trailing
  // comma, single quotes) makes npm refuse the file, so no script of it runs.
  const jsonError = jsonParseError(text);
  if (jsonError) return { snippets: [], findings: [jsonError] };
  const root = parsed.doc.contents;
  if (!isMap(root)) {
    const [s, e] = (root as Node | null)?.range ?? [0, text.length];
    return { snippets: [], findings: [unreadable('the top level is not an object', s, e)] };
  }
  const scripts = last(root, 'scripts');
  const snippets: Snippet[] = [];
  // Not an object: npm drops the field. A value that is not a string: npm drops that entry
  // (@npmcli/package-json normalize, "Invalid scripts entry was removed"), so nothing runs.
  for (const [name, node] of lastOfEach(scripts)) {
    if (!isScalar(node) || typeof node.value !== 'string') continue;
    const code = stringText(text, node);
    snippets.push({
      text: code.text,
      offsets: code.offsets,
      origin: `scripts.${name}`,
      shell: 'sh',
      where: 'host',
      cwd: '.',
      ...(LIFECYCLE.has(name) ? { lifecycle: true } : {}),
    });
  }
  return { snippets, findings: [] };
}

/** JSON.parse keeps the last of duplicate keys; so does npm. */
function lastOfEach(node: unknown): Map<string, Node | null> {
  const map = new Map<string, Node | null>();
  for (const [key, , value] of entries(node)) {
    map.delete(key);
    map.set(key, value);
  }
  return map;
}

function last(node: unknown, key: string): Node | null | undefined {
  return lastOfEach(node).get(key);
}

/** A string value's characters with their offsets: exact for a JSON string, aligned otherwise. */
function stringText(file: string, node: Node): MappedText {
  const [start, end] = node.range ?? [0, 0];
  const exact = jsonStringText(file, start, end);
  if (exact && isScalar(node) && exact.text === node.value) return exact;
  return scalarText(file, node as Parameters<typeof scalarText>[1]);
}

function jsonParseError(text: string): SourceFinding | null {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  try {
    JSON.parse(text.slice(bom));
    return null;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /at position (\d+)/.exec(message);
    const at = Math.min(text.length, m ? Number(m[1]) + bom : text.length);
    return unreadable(message, at, Math.min(text.length, at + 1));
  }
}

function unreadable(why: string, start: number, end: number): SourceFinding {
  return { rule: 'lint/unreadable-file', level: 'ask', message: `${lintMessage('lint/unreadable-file', 'JSON')} (${why})`, start, end };
}
