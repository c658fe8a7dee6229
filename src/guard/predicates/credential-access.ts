/** Named predicates for the credential-access rules (rules/builtin/credential-access.json). */
import type { Subject } from '../subject.js';
import type { Operation } from '../../ops/types.js';
import { writeChangesNothing } from '../../paths/classify.js';
import { globsMayMeet } from '../../paths/glob-meet.js';
import { globMatcher } from '../glob.js';
import { forPrograms, requires, type Predicate } from './programs.js';
import { isSecretPath, SECRET_DIRS } from './exfiltration-secrets.js';

/**
 * Programs that copy what they read into a file they write: copiers, archivers, encoders and the
 * plain readers whose output a redirect saves. Programs that only use a key to authenticate
 * (ssh, scp -i, git, curl --cert) are not here: their key read and their download are unrelated.
 */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const COPIERS = [
  'cp', 'gcp', 'mv', 'install', 'ditto', 'rsync', 'dd',
  'cat', 'tac', 'head', 'tail', 'tee', 'strings', 'base64', 'base32', 'basenc', 'xxd', 'od', 'hexdump', 'split',
  'tar', 'gtar', 'bsdtar', 'zip', '7z', '7za', '7zr', '7zz', 'rar', 'cpio', 'pax', 'gzip', 'bzip2', 'xz', 'zstd',
];
const COPIER_SET: ReadonlySet<string> = new Set(COPIERS);

/**
 * A write that puts a copy somewhere new: not a discarding sink (/dev/null), not the workspace
 * (a project's own .env copied beside it is not collection), and not a secret place itself
 * (`cp ~/.ssh/id_rsa ~/.ssh/id_rsa.bak` keeps the key where keys are kept).
 */
function stagingWrite(o: Operation): boolean {
  if (o.kind !== 'Write' || o.path === undefined || writeChangesNothing(o.path)) return false;
  const classes = o.classes ?? [];
  if (classes.includes('workspace')) return false;
  return !isSecretPath(o.path, classes) && !SECRET_DIRS(o.path);
}

/** World-readable account lists: secrets to the exfiltration rules, but no key (account-database-copy names them). */
const ACCOUNT_LISTS = new Set(['/etc/passwd', '/etc/group']);

/** Reads a key or credentials file and writes a copy of it outside the workspace and outside the secret's own place. */
function copiesSecretOut(s: Subject): boolean {
  if (s.cmd.program === null || !COPIER_SET.has(s.cmd.program)) return false;
  return s.secretReads.some((o) => !ACCOUNT_LISTS.has(o.path ?? '')) && s.ops.some(stagingWrite);
}

/**
 * `/proc/PID/mem` (or a thread's) when the pid is known only at run time: a dynamic operation has
 * no resolved path, only its target as written (`/proc/${PID}/mem`); the rule's operation glob
 * sees the static ones.
 */
const PROCESS_MEMORY = /^\/proc\/[^/]+\/(task\/[^/]+\/)?mem$/;

/** Programs that copy a file's bytes out (what a memory dump by hand uses). */
// prettier-ignore
const BYTE_READERS = ['dd', 'cat', 'tac', 'head', 'tail', 'strings', 'xxd', 'od', 'hexdump', 'base64', 'cp', 'grep', 'tee'];

/** Reads a process's memory file whose pid is known only at run time. */
function readsProcessMemory(s: Subject): boolean {
  if (s.cmd.program === null || !BYTE_READERS.includes(s.cmd.program)) return false;
  return s.ops.some((o) => o.kind === 'Read' && o.dynamic && PROCESS_MEMORY.test(o.target ?? ''));
}

/** Where password hashes are kept: Linux, the BSDs, and macOS's per-user records. */
const HASH_FILES = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/master.passwd',
  '/etc/spwd.db',
  '/etc/security/opasswd',
  '/etc/opasswd',
  '/var/db/dslocal/nodes/Default/users/*',
  '/var/db/shadow/hash/*',
];
const IS_HASH_FILE = globMatcher(HASH_FILES);
const MEET = { dotA: true, dotB: false, nocase: false };

/** Editors read the file they open (their operation is a Write: they may save it). */
const EDITORS = new Set(['ed', 'ex', 'vi', 'vim', 'nvim', 'view', 'nano', 'pico', 'emacs', 'mg', 'joe', 'micro', 'kak', 'hx']);

/**
 * A glob that may name a hash file by its last name (`/etc/sha*`, `/e?c/shadow`, find's
 * `/etc/**\/shadow`), not one that names every file of a directory (`/etc/*`: reading all of /etc
 * is not aimed at the hashes).
 */
function globMayBeHashFile(pattern: string): boolean {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  if (last.replace(/[*?[\]!]/g, '') === '') return false;
  return HASH_FILES.some((f) => !f.endsWith('*') && globsMayMeet(pattern, f, MEET));
}

/** Reads a password-hash file: a read of it (an editor opening it counts), also through a glob that may name it. */
function readsHashFile(s: Subject): boolean {
  const editor = s.cmd.program !== null && EDITORS.has(s.cmd.program);
  return s.ops.some((o) => {
    if (o.path === undefined || !(o.kind === 'Read' || (editor && o.kind === 'Write'))) return false;
    return o.glob ? globMayBeHashFile(o.path) : IS_HASH_FILE(o.path);
  });
}

export const credentialAccessPredicates: Record<string, Predicate> = {
  'credential-access/copies-secret-out': requires([{ features: ['Write'] }, { features: ['Read', 'List'] }], forPrograms(COPIERS, copiesSecretOut)),
  // Every hash file lies under /etc or /var: a glob whose top directory is a pattern is not looked at.
  'credential-access/reads-hash-file': requires([{ features: ['Read', 'Write'] }, { features: ['path:/etc', 'path:/var'] }], readsHashFile),
  'credential-access/reads-process-memory': requires([{ features: ['Read'] }], forPrograms(BYTE_READERS, readsProcessMemory)),
};
