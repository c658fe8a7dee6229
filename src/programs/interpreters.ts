/** Interpreters: which program family a name belongs to, and which options carry inline code. */

/** Options whose value is inline program text, per interpreter. */
export const CODE_OPTIONS: Record<string, string[]> = {
  python: ['-c'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  node: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  php: ['-r'],
  lua: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-command', '-encodedcommand', '-e', '-ec'],
  rscript: ['-e'],
  tclsh: [],
};

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
  if (Object.prototype.hasOwnProperty.call(CODE_OPTIONS, p)) return p;
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
    const names = CODE_OPTIONS[family] ?? [];
    const bundles = family === 'perl' || family === 'ruby';
    for (let i = 0; i < args.length; i++) {
      const a = args[i].value;
      const lower = a.toLowerCase();
      let taken = false;
      for (const n of names) {
        if (lower === n && i + 1 < args.length) {
          parts.push(args[i + 1].value);
          taken = true;
        } else if (n.length === 2 && a.startsWith(n) && a.length > 2 && !a.startsWith('--')) parts.push(a.slice(2));
        else if (a.startsWith(n + '=')) parts.push(a.slice(n.length + 1));
      }
      // perl -ne / -pie / ruby -ne: bundled switches ending in e take the code next.
      if (!taken && bundles && /^-[a-zA-Z]*[eE]$/.test(a) && a.length > 2 && i + 1 < args.length) parts.push(args[i + 1].value);
    }
  }
  if (stdinText !== null) parts.push(stdinText);
  return parts.length > 0 ? parts.join('\n') : null;
}
