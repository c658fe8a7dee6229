/**
 * A tool call's arguments as the audit log keeps them: JSON with secrets redacted, where a value
 * nested deeper than MAX_AUDIT_ARG_DEPTH is replaced by a marker that says how deep and how large
 * it was and its hash. Never dropped and never a throw: JSON.stringify and a recursive redaction
 * overflow the stack on an argument nested 5,000 deep, and the record of the decision was lost
 * with them, silently.
 */
import { createHash } from 'node:crypto';
import { redactValue } from '../auto/redact.js';

/** Deeper than any real tool's arguments; far from the depth where recursion overflows the stack. */
export const MAX_AUDIT_ARG_DEPTH = 64;
/** The key of a marker that stands for a value nested too deep: `{"…": "depth 5000 > 64, 29 KB, sha256 …"}`. */
export const DEEP_VALUE_KEY = '…';

/** The arguments as one line of JSON, redacted, deep values summarised; a marker string if even that fails. */
export function auditArguments(args: unknown): string {
  try {
    return JSON.stringify(redactValue(shallow(args, 0)));
  } catch (e) {
    return `[arguments not logged: ${e instanceof Error ? e.message : String(e)}]`;
  }
}

/** `v` with every object or array at depth MAX_AUDIT_ARG_DEPTH replaced by its marker. */
function shallow(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth >= MAX_AUDIT_ARG_DEPTH) return marker(v, depth);
  if (Array.isArray(v)) return v.map((x) => shallow(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shallow(x, depth + 1)]));
}

function marker(v: object, depth: number): Record<string, string> {
  const m = measure(v);
  const size = m.bytes < 1024 ? `${m.bytes} bytes` : `${Math.round(m.bytes / 1024)} KB`;
  return { [DEEP_VALUE_KEY]: `depth ${depth + m.depth} > ${MAX_AUDIT_ARG_DEPTH}, ${size}, sha256 ${m.sha256}` };
}

type Pending = { text: string } | { value: unknown; key?: string; depth: number };

/**
 * The depth of `v`, and the size and SHA-256 of its JSON with secrets redacted (a hash of the raw
 * text would let a reader of the log confirm a guessed secret), walked with a stack of its own:
 * no recursion, however deep.
 */
function measure(v: object): { depth: number; bytes: number; sha256: string } {
  const hash = createHash('sha256');
  let bytes = 0;
  let depth = 0;
  const put = (s: string) => {
    hash.update(s);
    bytes += Buffer.byteLength(s);
  };
  const stack: Pending[] = [{ value: v, depth: 1 }];
  while (stack.length > 0) {
    const p = stack.pop()!;
    if ('text' in p) {
      put(p.text);
      continue;
    }
    const x = p.value;
    if (typeof x !== 'object' || x === null) {
      // A leaf is redacted as redactValue would redact it under its key (a secret's name hides any value).
      const leaf = p.key !== undefined ? (redactValue({ [p.key]: x }) as Record<string, unknown>)[p.key] : redactValue(x);
      put(JSON.stringify(leaf) ?? 'null');
      continue;
    }
    depth = Math.max(depth, p.depth);
    // Pushed in reverse: the closing bracket first, then the items from the last to the first.
    const entries: [string | undefined, unknown][] = Array.isArray(x) ? x.map((e) => [undefined, e]) : Object.entries(x);
    stack.push({ text: Array.isArray(x) ? ']' : '}' });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, e] = entries[i]!;
      stack.push({ value: e, ...(k !== undefined ? { key: k } : {}), depth: p.depth + 1 });
      const prefix = (i > 0 ? ',' : '') + (k !== undefined ? `${JSON.stringify(k)}:` : '');
      if (prefix !== '') stack.push({ text: prefix });
    }
    stack.push({ text: Array.isArray(x) ? '[' : '{' });
  }
  return { depth, bytes, sha256: hash.digest('hex') };
}
