/** What counts as a secret, for the exfiltration predicates. */
import { globMatcher } from '../glob.js';
import type { Operation } from '../../ops/types.js';
// ---------------------------------------------------------------------------------------------
// What counts as a secret

/**
 * Secrets beyond the core's `sensitive` class (which also covers rc files and agent settings):
 * shell history, the process environment, account databases, registry and cloud tokens.
 * Written with a leading `**` so they hold for any home directory.
 */
export const EXTRA_SECRETS = globMatcher([
  '**/.*_history',
  '**/.histfile',
  '/proc/*/environ',
  '/proc/self/environ',
  '/etc/passwd',
  '/etc/master.passwd',
  '**/.cargo/credentials',
  '**/.cargo/credentials.toml',
  '**/.gem/credentials',
  '**/.vault-token',
  '**/.terraform.d/credentials.tfrc.json',
  '**/.config/rclone/rclone.conf',
  '**/.password-store/**',
  '**/.local/share/keyrings/**',
  '**/.htpasswd',
  '**/.pgpass',
  '**/.my.cnf',
  '**/.config/gh/hosts.yml',
  '**/.config/hub',
  // the whole ~/.config holds gh, gcloud, rclone… tokens
  '/home/*/.config',
  '/Users/*/.config',
  '/root/.config',
]);

/** Sensitive-class paths that are configuration, not secrets: sending them is not a leak. */
export const NOT_SECRET = globMatcher([
  '**/*.pub',
  '**/.ssh/config',
  '**/.ssh/known_hosts*',
  '**/.env.example',
  '**/.env.sample',
  '**/.env.template',
  '**/.env.dist',
  '**/.env.defaults',
  '**/.bashrc',
  '**/.bash_profile',
  '**/.bash_login',
  '**/.bash_logout',
  '**/.profile',
  '**/.zshrc',
  '**/.zshenv',
  '**/.zprofile',
  '**/.zlogin',
  '**/.config/fish/**',
  '/etc/profile',
  '/etc/bash.bashrc',
  '**/.git/hooks/**',
  '**/.vscode/settings.json',
]);

/** A path whose content is a credential, a key, an environment or an account database. */
export function isSecretPath(path: string, classes: readonly string[] = []): boolean {
  // The exceptions are only looked up for a path that would count: most paths are no secret.
  return (classes.includes('sensitive') || EXTRA_SECRETS(path)) && !NOT_SECRET(path);
}

/** Directories whose every file is a secret: a glob inside them (`~/.ssh/*`) reads secrets. */
export const SECRET_DIRS = globMatcher([
  '**/.ssh',
  '**/.aws',
  '**/.gnupg',
  '**/.kube',
  '**/.password-store',
  '**/.config/gcloud',
  '**/.azure',
  '/etc/ssl/private',
]);

/**
 * The operation reads a secret. A glob counts only when its fixed directory is a secret
 * directory: `~/.ssh/*` does, `~/.bash*` or find's `{}` placeholder (which may match anything) do not.
 */
export function isSecretRead(op: Operation): boolean {
  if ((op.kind !== 'Read' && op.kind !== 'List') || op.path === undefined) return false;
  if (op.glob) {
    const fixed = op.path.slice(0, op.path.search(/[*?[{]/));
    const dir = fixed.slice(0, fixed.lastIndexOf('/'));
    return dir !== '' && SECRET_DIRS(dir);
  }
  return isSecretPath(op.path, op.classes ?? []);
}

/** Secret paths written in text (socat `file:…`, sftp `put …`), where no operation resolves them. */
export const SECRET_TEXT =
  /(^|[\s:'"=])(~|\$HOME|\/home\/[^/\s]+|\/root|\/Users\/[^/\s]+)?\/?\.(ssh\/(id_|identity)|aws\/|gnupg\/|kube\/config|netrc|git-credentials|npmrc|pypirc|docker\/config\.json|config\/gcloud\/|azure\/)|\/etc\/(shadow|gshadow|passwd|master\.passwd)\b|(^|[\s/:'"])\.env(\s|$|['"])|\/proc\/[^/\s]+\/environ\b|\bid_(rsa|dsa|ecdsa|ed25519)(\s|$|['"])/;

export function textNamesSecret(text: string): boolean {
  return SECRET_TEXT.test(text) && !/\.pub(\s|$|['"])/.test(text.match(SECRET_TEXT)?.[0] ?? '');
}
