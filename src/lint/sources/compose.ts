/**
 * docker-compose files: what each service's container runs (`command`, `entrypoint`,
 * `healthcheck.test`, `post_start`/`pre_stop` hooks), after compose's own `${VAR}` interpolation.
 *
 * A string `command` is split into words by compose itself, not run by a shell, so `&&` or `|` in
 * it would be plain words; the analyser reads it as a shell command all the same, the stricter
 * reading. A list is the exact argv, handed over as single-quoted words.
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { MappedText } from '../source-text.js';
import { argvText, type ArgvWord } from './argv-text.js';
import { interpolate, shellText } from './compose-interpolation.js';
import type { Extracted, Snippet, SourceKind } from './types.js';
import { entries, parseYaml, scalarText, str } from './yaml-text.js';

const COMPOSE_FILE = /^(docker-)?compose(\.[^/]+)?\.ya?ml$/;

export const compose: SourceKind = {
  name: 'compose',
  matches(path: string): boolean {
    return COMPOSE_FILE.test(path.slice(path.lastIndexOf('/') + 1));
  },
  extract(text: string): Extracted {
    const { doc, findings } = parseYaml(text, 'YAML');
    if (!doc) return { snippets: [], findings };
    const snippets: Snippet[] = [];
    const services = lookup(doc, doc.contents, 'services');
    for (const [name, , svcNode] of entries(services)) {
      const svc = deref(doc, svcNode);
      const cwd = workingDir(lookup(doc, svc, 'working_dir'));
      const at = `services.${name}`;
      const add = (origin: string, code: MappedText | null, dir = cwd): void => {
        if (code && code.text.trim() !== '') snippets.push({ ...code, origin, shell: 'sh', where: 'container', cwd: dir });
      };
      for (const key of ['entrypoint', 'command']) add(`${at}.${key}`, commandCode(text, doc, lookup(doc, svc, key)));
      add(`${at}.healthcheck.test`, healthcheckCode(text, doc, lookup(doc, lookup(doc, svc, 'healthcheck'), 'test')));
      for (const hook of ['post_start', 'pre_stop']) {
        const list = lookup(doc, svc, hook);
        if (!isSeq(list)) continue;
        list.items.forEach((h, i) => {
          const dir = lookup(doc, h, 'working_dir');
          add(`${at}.${hook}[${i}].command`, commandCode(text, doc, lookup(doc, h, 'command')), dir ? workingDir(dir) : cwd);
        });
      }
    }
    return { snippets, findings };
  },
};

/** A node with an alias (`*default`) followed to its anchor. */
function deref(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** The value at `key` of a map, also through merge keys (`<<: *defaults`), aliases followed. */
function lookup(doc: Document, node: unknown, key: string, depth = 0): Node | undefined {
  const map = deref(doc, node);
  // A merge chain deeper than any real file (or one that loops back on itself) stops here.
  if (!isMap(map) || depth > 20) return undefined;
  let merged: Node | undefined;
  for (const [k, kn, v] of entries(map)) {
    if (k === key) return deref(doc, v) as Node | undefined;
    // The parser keeps a merge key as a scalar whose value is a symbol, its source `<<`.
    if (isScalar(kn) && (kn.source === '<<' || kn.value === '<<') && merged === undefined) {
      const sources = isSeq(v) ? v.items : [v];
      for (const s of sources) merged ??= lookup(doc, s, key, depth + 1);
    }
  }
  return merged;
}

function workingDir(node: unknown): string {
  const v = str(node);
  return v !== undefined && v.startsWith('/') && !v.includes('$') ? v : '/';
}

/** A string is shell-like text; a list is argv. */
function commandCode(file: string, doc: Document, node: unknown): MappedText | null {
  if (isScalar(node) && node.value !== null) return shellText(interpolate(scalarText(file, node), file));
  if (isSeq(node)) return argvCode(file, doc, node.items);
  return null;
}

/** `["CMD-SHELL", "code"]` or a plain string is shell code; `["CMD", argv…]` is argv; `["NONE"]` nothing. */
function healthcheckCode(file: string, doc: Document, node: unknown): MappedText | null {
  if (isScalar(node)) return commandCode(file, doc, node);
  if (!isSeq(node)) return null;
  const [kind, ...rest] = node.items.map((n) => deref(doc, n));
  if (str(kind) === 'CMD-SHELL' && isScalar(rest[0])) return commandCode(file, doc, rest[0]);
  if (str(kind) === 'CMD') return argvCode(file, doc, rest);
  return null;
}

function argvCode(file: string, doc: Document, items: readonly unknown[]): MappedText | null {
  const words: ArgvWord[] = [];
  for (const item of items) {
    const n = deref(doc, item);
    if (!isScalar(n) || n.value === null) continue;
    const value = scalarText(file, n);
    const [start, end] = n.range ?? [0, 0];
    words.push({ pieces: interpolate(value, file), open: start, close: Math.max(start, end - 1) });
  }
  return words.length > 0 ? argvText(words) : null;
}
