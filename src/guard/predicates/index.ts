/** Every named predicate, by name. Each category keeps its own in a file beside this one. */
import type { Predicate } from './programs.js';
import { CORE_PREDICATES } from './core.js';
import { destructiveDeletePredicates } from './destructive-delete.js';
import { diskWritePredicates } from './disk-write.js';
import { downloadExecPredicates } from './download-exec.js';
import { obfuscationPredicates } from './obfuscation.js';
import { reverseShellPredicates } from './reverse-shell.js';
import { privilegeEscalationPredicates } from './privilege-escalation.js';
import { exfiltrationPredicates } from './exfiltration.js';
import { remoteExecPredicates } from './remote-exec.js';
import { resourceAbusePredicates } from './resource-abuse.js';
import { shutdownPredicates } from './shutdown.js';
import { credentialAccessPredicates } from './credential-access.js';
import { defenseEvasionPredicates } from './defense-evasion.js';
import { persistencePredicates } from './persistence.js';
import { findPredicates } from './find.js';

export const PREDICATES: Record<string, Predicate> = {
  ...CORE_PREDICATES,
  ...destructiveDeletePredicates,
  ...diskWritePredicates,
  ...downloadExecPredicates,
  ...obfuscationPredicates,
  ...reverseShellPredicates,
  ...privilegeEscalationPredicates,
  ...exfiltrationPredicates,
  ...remoteExecPredicates,
  ...resourceAbusePredicates,
  ...shutdownPredicates,
  ...credentialAccessPredicates,
  ...defenseEvasionPredicates,
  ...persistencePredicates,
  ...findPredicates,
};
