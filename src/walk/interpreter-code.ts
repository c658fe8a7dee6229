/**
 * Shell commands hidden in interpreter one-liners. `python -c "os.system('rm -rf /')"` runs
 * `rm -rf /`; `shutil.rmtree('/home')` does what `rm -rf /home` does. We do not parse Python or
 * Ruby: we find string literals handed to the process-spawning and file-deleting APIs of each
 * language and turn them into shell command lines, which the walker then analyses like `sh -c`.
 * What is not found this way stays an unknown Exec (ask).
 */
import { shellQuote } from './parallel-jobs.js';

const STR = String.raw`(['"])((?:\\.|(?!\1)[^\\])*)\1`;

/** Calls whose first string argument is a shell command line, per family. */
const SHELL_CALLS: Record<string, string> = {
  python: String.raw`(?:os\.system|os\.popen|commands\.getoutput|commands\.getstatusoutput|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))`,
  perl: String.raw`(?:system|exec|qx)`,
  ruby: String.raw`(?:system|exec|spawn|IO\.popen|Open3\.\w+|Kernel\.system|%x)`,
  php: String.raw`(?:system|exec|shell_exec|passthru|popen|proc_open)`,
  node: String.raw`(?:exec|execSync|child_process\.exec|child_process\.execSync)`,
  lua: String.raw`(?:os\.execute|io\.popen)`,
  awk: String.raw`(?:system)`,
};

/** File APIs that delete, as the rm they amount to. */
const DELETE_CALLS: { re: string; recursive: boolean }[] = [
  {
    re: String.raw`(?:shutil\.rmtree|FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?)|remove_tree|rmtree|fs\.(?:rmSync|rmdirSync|rm|rmdir|promises\.rm))`,
    recursive: true,
  },
  { re: String.raw`(?:os\.remove|os\.unlink|File\.delete|FileUtils\.rm(?:_f)?|fs\.unlinkSync|fs\.unlink|unlink)`, recursive: false },
];

/** Expressions that mean the home directory. */
const HOME_EXPR = /^(Dir\.home|os\.homedir\(\)|os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|\$ENV\{HOME\}|process\.env\.HOME|ENV\[['"]HOME['"]\])/;

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** The first argument of a call starting at `rest`: a string literal, a home expression, or a glob(…) of one. */
function firstPath(rest: string): string | null {
  const m = new RegExp(String.raw`^\s*\(?\s*(?:glob\(\s*)?` + STR).exec(rest);
  if (m) return unescape(m[2]);
  const h = HOME_EXPR.exec(rest.replace(/^\s*\(?\s*/, ''));
  return h ? '~' : null;
}

export function commandsInCode(family: string, code: string): string[] {
  const out: string[] = [];
  const shell = SHELL_CALLS[family];
  if (shell) {
    for (const m of code.matchAll(new RegExp(String.raw`\b${shell}\s*\(?\s*` + STR, 'g'))) out.push(unescape(m[2]));
    // Argument lists: subprocess.run(["rm", "-rf", "/"]), spawn('rm', ['-rf', '/']).
    for (const m of code.matchAll(
      /\b(?:subprocess\.\w+|spawn(?:Sync)?|execFile(?:Sync)?|Popen|system|exec)\s*\(\s*(?:(['"])((?:\\.|(?!\1)[^\\])*)\1\s*,\s*)?\[([^\]]*)\]/g,
    )) {
      const words = [...m[3].matchAll(/(['"])((?:\\.|(?!\1)[^\\])*)\1/g)].map((w) => unescape(w[2]));
      const argv = m[2] !== undefined ? [unescape(m[2]), ...words] : words;
      if (argv.length > 0) out.push(argv.map(shellQuote).join(' '));
    }
  }
  // Backquotes run a shell in perl, ruby and php (in JavaScript they are template strings).
  if (family === 'perl' || family === 'ruby' || family === 'php') {
    for (const m of code.matchAll(/`([^`]+)`/g)) out.push(m[1]);
  }
  if (family === 'python' && /\bpty\.spawn\s*\(\s*['"][^'"]*\b(sh|bash|zsh|dash)['"]/.test(code)) out.push('sh -i');
  for (const { re, recursive } of DELETE_CALLS) {
    for (const m of code.matchAll(new RegExp(String.raw`\b${re}\b`, 'g'))) {
      const p = firstPath(code.slice(m.index! + m[0].length));
      if (p !== null) out.push(`rm ${recursive ? '-rf' : '-f'} ${p === '~' || p.startsWith('~/') ? p : shellQuote(p)}`);
    }
  }
  return out;
}
