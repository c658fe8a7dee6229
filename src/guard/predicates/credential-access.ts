/** Named predicates for the credential-access rules (rules/builtin/credential-access.json). */
import type { Subject } from '../subject.js';
import type { Operation } from '../../ops/types.js';
import { writeChangesNothing } from '../../paths/classify.js';
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
 * `/proc/PID/mem` (or a thread's), also when the pid is known only at run time: a dynamic
 * operation has no resolved path, only its target as written (`/proc/${PID}/mem`).
 */
const PROCESS_MEMORY = /^\/proc\/[^/]+\/(task\/[^/]+\/)?mem$/;

/** Reads another process's memory file, whatever the pid. */
function readsProcessMemory(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Read' && PROCESS_MEMORY.test(o.path ?? o.target ?? ''));
}

export const credentialAccessPredicates: Record<string, Predicate> = {
  'credential-access/copies-secret-out': requires([{ features: ['Write'] }, { features: ['Read', 'List'] }], forPrograms(COPIERS, copiesSecretOut)),
  'credential-access/reads-process-memory': requires([{ features: ['Read'] }], readsProcessMemory),
};
