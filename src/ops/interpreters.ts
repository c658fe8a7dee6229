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

/** `python3.11` → python, `nodejs` → node, `powershell` → pwsh. */
export function interpreterFamily(program: string): string | null {
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

