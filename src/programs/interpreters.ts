/**
 * Interpreters: which program family a name belongs to, and the inline program text a command
 * runs. Which options carry code is spec data (role `code`, with its language).
 */
import { own } from '../own.js';
import { defaultSpecs } from './load-specs.js';
import type { CommandSpec } from './spec-types.js';

/**
 * The spec (rules/programs/<program>.json) that says each family's inline-code options: those
 * whose value has the role `code` (`python -c`, `node -e`…), and subcommands whose first operand
 * is code (`deno eval CODE`).
 */
const FAMILY_SPECS: Readonly<Record<string, string>> = {
  python: 'python',
  perl: 'perl',
  ruby: 'ruby',
  node: 'node',
  bun: 'bun',
  deno: 'deno',
  php: 'php',
  lua: 'lua',
  osascript: 'osascript',
  pwsh: 'pwsh',
  rscript: 'Rscript',
  tclsh: 'tclsh',
};

const codeWords = new Map<string, readonly string[]>();

/** The words after which a family's inline code stands (`-c`, `--eval`, `eval`), from its spec. */
export function codeOptions(family: string): readonly string[] {
  let words = codeWords.get(family);
  if (words === undefined) {
    const program = own(FAMILY_SPECS, family);
    const spec = program === undefined ? undefined : defaultSpecs().get(program);
    words = spec === undefined ? [] : codeWordsOf(spec);
    codeWords.set(family, words);
  }
  return words;
}

function codeWordsOf(spec: CommandSpec): string[] {
  const options = Object.entries(spec.options ?? {})
    .filter(([, o]) => o.role === 'code')
    .map(([name]) => name);
  const subcommands = Object.entries(spec.subcommands ?? {})
    .filter(([, s]) => s.operands?.[0] === 'code')
    .map(([name]) => name);
  return [...options, ...subcommands];
}

/** Families already looked up, by program name: the walker, the operations and the guard each ask. */
const families = new Map<string, string | null>();

/** `python3.11` → python, `nodejs` → node, `powershell` → pwsh. */
export function interpreterFamily(program: string): string | null {
  let family = families.get(program);
  if (family === undefined) {
    family = familyOf(program);
    if (families.size >= 4096) families.clear();
    families.set(program, family);
  }
  return family;
}

function familyOf(program: string): string | null {
  const p = program.toLowerCase();
  if (/^python[0-9.]*$/.test(p) || p === 'pypy' || p === 'pypy3') return 'python';
  if (/^perl[0-9.]*$/.test(p)) return 'perl';
  if (/^ruby[0-9.]*$/.test(p) || p === 'jruby') return 'ruby';
  if (p === 'node' || p === 'nodejs') return 'node';
  if (p === 'powershell' || p === 'pwsh' || p === 'powershell.exe') return 'pwsh';
  if (/^php[0-9.]*$/.test(p)) return 'php';
  if (/^lua[0-9.]*$/.test(p) || p === 'luajit') return 'lua';
  if (own(FAMILY_SPECS, p) !== undefined) return p;
  if (/^(g|m|n)?awk$/.test(p) || p === 'busybox-awk') return 'awk';
  return null;
}

const AWK_VALUE_OPTIONS = new Set(['-F', '-v', '-f', '--field-separator', '--assign', '--file', '-W', '-i', '--include', '-l', '--load', '-E', '--exec']);

/**
 * The inline program text an interpreter runs: the values of its code options (`python -c`,
 * `perl -e`/`-ne`, `node -e`…), awk's program operand, and a static stdin. Null when there is none.
 */
export function inlineCode(program: string, args: readonly { value: string }[], stdinText: string | null): string | null {
  const family = interpreterFamily(program);
  if (!family) return null;
  // The walker (to follow the commands in it) and the guard (its code rules) both ask.
  const hit = codes.get(args);
  if (hit !== undefined && hit.program === program && hit.stdinText === stdinText) return hit.code;
  const code = readInlineCode(family, args, stdinText);
  codes.set(args, { program, stdinText, code });
  return code;
}

/** The last inline code read from each argv. */
const codes = new WeakMap<readonly object[], { program: string; stdinText: string | null; code: string | null }>();

function readInlineCode(family: string, args: readonly { value: string }[], stdinText: string | null): string | null {
  const parts: string[] = [];
  if (family === 'awk') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i].value;
      if (a === '-f' || a === '--file' || a.startsWith('--file=')) return stdinText;
      if (AWK_VALUE_OPTIONS.has(a)) i++;
      else if (a === '--') {
        if (i + 1 < args.length) parts.push(args[i + 1].value);
        break;
      } else if (!a.startsWith('-') || a === '-') {
        parts.push(a);
        break;
      }
    }
  } else {
    parts.push(...codeValues(args, codeOptions(family), family === 'perl' || family === 'ruby'));
  }
  if (stdinText !== null) parts.push(stdinText);
  return parts.length > 0 ? parts.join('\n') : null;
}

/**
 * The values of code options, wherever they stand (a lenient reading: `python x.py -c y` is taken
 * as code too): `-c CODE`, `-cCODE`, `--eval=CODE`; the option names match in any case (pwsh).
 */
function codeValues(args: readonly { value: string }[], names: readonly string[], bundles: boolean): string[] {
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i].value;
    if (names.includes(a.toLowerCase())) {
      // The word is a code option itself: its code is the next word (never a part of its own name).
      if (i + 1 < args.length) parts.push(args[i + 1].value);
      continue;
    }
    for (const n of names) {
      if (n.length === 2 && a.startsWith(n) && a.length > 2 && !a.startsWith('--')) parts.push(a.slice(2));
      else if (a.startsWith(n + '=')) parts.push(a.slice(n.length + 1));
    }
    // perl -ne / -pie / ruby -ne: bundled switches ending in e take the code next.
    if (bundles && /^-[a-zA-Z]*[eE]$/.test(a) && a.length > 2 && i + 1 < args.length) parts.push(args[i + 1].value);
  }
  return parts;
}
