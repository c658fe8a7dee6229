/**
 * The sensitive patterns as the names the files really take, for comparing with a glob.
 *
 * An exact path is sensitive when it matches a pattern at all: `id_rsa.anything`, `.env.anything`
 * and any file under `.claude/` ask. A glob is another matter: `src/**\/*.c` meets `**\/id_rsa*`
 * only through a file named `id_rsa….c`, and `**\/.claude/**` only through a C file in an agent's
 * settings directory — names no key and no settings file takes. So a glob is compared with the
 * forms below: keys as keys are named, dotenv files as dotenv tools name them, and the agent and
 * hook directories inside a project by the kinds of file that hold settings or tokens there. A
 * glob that may match any of those (`*`, `*.json`, `.env*`, `id_*`) is still sensitive.
 */

/** Names a key pair takes: the private key, its public half, a certificate, backups. */
const KEY_SUFFIXES = ['', '.pub', '-cert.pub', '.old', '.bak', '.orig', '~'];

/** dotenv variants: the files dotenv loaders and frameworks read, and the usual copies. */
const DOTENV_MODES = ['development', 'production', 'test', 'staging', 'dev', 'prod', 'qa', 'ci', 'preview', 'stage', 'uat'];
const DOTENV_FORMS = [
  '.env.local',
  ...DOTENV_MODES.flatMap((m) => [`.env.${m}`, `.env.${m}.local`]),
  '.env.bak',
  '.env.old',
  '.env.save',
  '.env.backup',
  '.env.orig',
];

/**
 * Files that hold settings or tokens in an agent's or a hook directory. A hook script there is not
 * a secret to read; writing it is judged as `exec-config` (paths/exec-config.ts), not by this list.
 */
const SETTINGS_FORMS = ['*.json', '*.jsonc', '*.json5', '*.toml', '*.yaml', '*.yml', '*.env', '*.ini', '*.conf', '*.cfg', '*.key', '*.pem', '*.local'];

/** Directories inside any project whose files are sensitive by kind, not by every name. */
const PROJECT_DIR = /^\*\*\/(\.[a-z]+(?:\/hooks)?)\/\*\*$/;

/**
 * A glob whose last segment is only wildcards (`*`, `src/*`, `find`'s `root/**`) names no file in
 * particular: like `grep -r x dir`, it reads a directory's entries, and it is sensitive only when that
 * directory is (`~/.ssh/*`, `.claude/*`) — it is compared with the directory patterns alone.
 */
export function namesNoFile(glob: string): boolean {
  return /(^|\/)[*?]+$/.test(glob);
}

/** Is the pattern a directory's whole content (`~/.ssh/**`)? */
export function isSubtree(pattern: string): boolean {
  return pattern.endsWith('/**') || /\/\*\*\/[^/]*$/.test(pattern);
}

export function globForms(pattern: string): string[] {
  const key = /^(.*\/id_[a-z0-9]+)\*$/.exec(pattern);
  if (key !== null) return KEY_SUFFIXES.map((s) => key[1] + s);
  if (pattern === '**/.env.*') return DOTENV_FORMS.map((f) => '**/' + f);
  const dir = PROJECT_DIR.exec(pattern);
  if (dir !== null) return SETTINGS_FORMS.map((f) => `**/${dir[1]}/**/${f}`);
  return [pattern];
}
