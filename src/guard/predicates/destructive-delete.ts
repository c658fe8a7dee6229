/**
 * Named predicates for the destructive-delete rules (rules/builtin/destructive-delete.json): how
 * cloud and cluster CLIs say "delete", and when a delete takes a whole container of data or of
 * resources (a bucket's contents, a database, a namespace, a resource group, a project, a
 * cluster, every resource of a stack) rather than one named resource.
 *
 * Both read the command words — the subcommands the spec knows, then the leading operands — never
 * an option's value: `az --subscription delete vm list` lists VMs.
 */
import type { Subject } from '../subject.js';
import { own } from '../../own.js';
import { forPrograms, type Predicate } from './programs.js';

/** The CLIs whose deletes these predicates read. */
const CLOUD_CLIS = ['aws', 'az', 'gcloud', 'gsutil', 'kubectl', 'oc', 'helm', 'terraform', 'tofu', 'pulumi', 'doctl'] as const;

/**
 * What the command does, as words: the known subcommands (`kubectl delete`), then the operands up
 * to the first option (`az vm delete -n x`: `vm delete`). Past a subcommand the spec does not
 * know, the rest is unparsed: an option the spec in force lists is skipped with its value
 * (`gcloud compute --project p instances delete`), any other ends the words (its value is unknown).
 */
export function commandWords(s: Subject): string[] {
  const p = s.parsed;
  const words = [...p.subcommands];
  const unparsed = p.unknownSubcommand !== null;
  const ops = p.operands;
  for (let i = 0; i < ops.length; i++) {
    const a = ops[i];
    if (a.dynamic) break;
    if (!unparsed || !a.value.startsWith('-')) {
      words.push(a.value);
      continue;
    }
    const eq = a.value.indexOf('=');
    const o = own(p.spec.options, eq > 0 ? a.value.slice(0, eq) : a.value);
    if (o === undefined) break;
    if (o.value === true && eq < 0) i++;
  }
  return words;
}

const DELETE_VERB = /^(delete|destroy|uninstall|un|del|rm|rb|purge|terminate|delete-[a-z0-9-]+|terminate-[a-z0-9-]+|delete-batch)$/;

/** Resource types whose deletion takes data or many resources with it (kubectl, oc). */
const K8S_WHOLESALE = new Set([
  'namespace',
  'namespaces',
  'ns',
  'project',
  'projects',
  'all',
  'pv',
  'pvc',
  'persistentvolume',
  'persistentvolumes',
  'persistentvolumeclaim',
  'persistentvolumeclaims',
  'crd',
  'crds',
  'customresourcedefinition',
  'customresourcedefinitions',
]);

/** aws operations that delete a store of data or a whole set of resources. */
const AWS_WHOLESALE = new Set([
  'delete-stack',
  'delete-cluster',
  'delete-db-instance',
  'delete-db-cluster',
  'delete-global-cluster',
  'delete-table',
  'delete-file-system',
  'delete-objects',
  'delete-vault',
  'delete-backup-vault',
  'delete-recovery-point',
  'terminate-clusters',
  'delete-domain',
  'delete-stream',
  'delete-keyspace',
]);

/** az groups whose `delete` removes a store of data or a whole set of resources (`az sql db delete`). */
const AZ_WHOLESALE_GROUPS = new Set(['group', 'aks', 'cosmosdb', 'sql', 'mysql', 'postgres', 'mariadb', 'synapse', 'databricks']);
/** `az storage X delete`: containers of data (account, container, share, table, queue, file system). */
const AZ_STORAGE_CONTAINERS = new Set(['account', 'container', 'share', 'share-rm', 'table', 'queue', 'fs']);

/** gcloud resources whose `delete` removes a store of data or a whole set of resources. */
const GCLOUD_WHOLESALE = new Set(['projects', 'folders', 'clusters', 'sql', 'spanner', 'bigtable', 'filestore', 'firestore', 'databases', 'alloydb']);

/** doctl resources whose `delete` removes a store of data or a cluster. */
const DOCTL_WHOLESALE = new Set(['kubernetes', 'databases', 'projects', 'volume']);

/**
 * One of these options is written: parsed by the spec, or — past a subcommand the spec does not
 * know, where the rest is unparsed — as a word of its own (`--recursive`, `--force=true`).
 */
function hasAny(s: Subject, names: readonly string[]): boolean {
  if (names.some((n) => s.hasFlag(n))) return true;
  if (s.parsed.unknownSubcommand === null) return false;
  return s.parsed.operands.some((a) => names.some((n) => a.value === n || a.value.startsWith(`${n}=`)));
}

/** `--dry-run`, `--dry-run=client|server` (kubectl's `--dry-run=none` does delete), `aws s3 rm --dryrun`. */
function dryRun(s: Subject): boolean {
  if (s.parsed.options.some((o) => (o.name === '--dry-run' && o.value?.value !== 'none') || o.name === '--dryrun')) return true;
  return s.parsed.unknownSubcommand !== null && s.parsed.operands.some((a) => a.value === '--dry-run' || a.value === '--dryrun');
}

/** Does this command delete through a cloud or cluster CLI (one resource or many)? */
function cloudDelete(s: Subject): boolean {
  // `kubectl delete -h` prints usage; a dry run only reports.
  if (dryRun(s) || hasAny(s, ['-h', '--help', '-help'])) return false;
  const words = commandWords(s);
  switch (s.cmd.program) {
    case 'kubectl':
    case 'oc':
      return words[0] === 'delete';
    case 'helm':
      return words[0] === 'uninstall' || words[0] === 'delete' || words[0] === 'del' || words[0] === 'un';
    case 'terraform':
    case 'tofu':
      return words[0] === 'destroy' || (words[0] === 'apply' && hasAny(s, ['-destroy', '--destroy'])) || (words[0] === 'state' && words[1] === 'rm');
    case 'pulumi':
      return words[0] === 'destroy' || (words[0] === 'stack' && words[1] === 'rm');
    case 'gsutil':
      return words[0] === 'rm' || words[0] === 'rb';
    case 'aws':
      // `aws s3 rm help` prints the manual.
      if (words.includes('help')) return false;
      return words.length >= 2 && (DELETE_VERB.test(words[1]) || (words[0] === 's3' && (words[1] === 'rm' || words[1] === 'rb')));
    case 'az':
    case 'gcloud':
    case 'doctl':
      // The verb ends the group path (`az vm delete`, `gcloud compute instances delete NAME`).
      return words.some((w) => DELETE_VERB.test(w));
    default:
      return false;
  }
}

/** kubectl/oc: the resource types named (`pod`, `deploy,svc`, `ns/prod`) take a namespace, every resource, volumes… */
function k8sWholesale(s: Subject, words: string[]): boolean {
  if (hasAny(s, ['--all', '-A', '--all-namespaces'])) return true;
  const kind = words[1];
  if (kind === undefined) return false;
  return kind.split(',').some((k) => K8S_WHOLESALE.has(k.split('/')[0].split('.')[0].toLowerCase()));
}

/** terraform/tofu destroy, pulumi destroy: everything the configuration manages unless targeted. */
function destroysEverything(s: Subject, words: string[]): boolean {
  if (words[0] === 'state' || words[0] === 'stack') return false;
  if (s.cmd.program === 'pulumi') return !hasAny(s, ['--target', '-t']);
  return !hasAny(s, ['-target', '--target', '-target-file']);
}

function awsWholesale(s: Subject, words: string[]): boolean {
  if (words[0] === 's3') return (words[1] === 'rm' && hasAny(s, ['--recursive'])) || (words[1] === 'rb' && hasAny(s, ['--force']));
  if (words[1] === 'delete-secret') return hasAny(s, ['--force-delete-without-recovery']);
  return AWS_WHOLESALE.has(words[1]);
}

function azWholesale(words: string[]): boolean {
  const verb = words.findIndex((w) => DELETE_VERB.test(w));
  if (verb < 0) return false;
  if (words[verb] === 'delete-batch') return true;
  if (words[0] === 'storage') return verb === 2 && AZ_STORAGE_CONTAINERS.has(words[1]);
  return AZ_WHOLESALE_GROUPS.has(words[0]);
}

function gcloudWholesale(s: Subject, words: string[]): boolean {
  const verb = words.findIndex((w) => DELETE_VERB.test(w));
  if (verb < 0) return false;
  if (words[0] === 'storage' && words[verb] === 'rm') return hasAny(s, ['-r', '-R', '--recursive', '-a', '--all-versions']);
  return words.slice(0, verb).some((w) => GCLOUD_WHOLESALE.has(w));
}

/** Does this cloud delete take a whole container of data or of resources? */
function cloudWholesaleDelete(s: Subject): boolean {
  if (!cloudDelete(s)) return false;
  const words = commandWords(s);
  switch (s.cmd.program) {
    case 'kubectl':
    case 'oc':
      return k8sWholesale(s, words);
    case 'helm':
      return hasAny(s, ['--all', '-A', '--all-namespaces']);
    case 'terraform':
    case 'tofu':
    case 'pulumi':
      return destroysEverything(s, words);
    case 'gsutil':
      return words[0] === 'rm' && hasAny(s, ['-r', '-R', '-a']);
    case 'aws':
      return awsWholesale(s, words);
    case 'az':
      return azWholesale(words);
    case 'gcloud':
      return gcloudWholesale(s, words);
    case 'doctl':
      return words.some((w) => DOCTL_WHOLESALE.has(w));
    default:
      return false;
  }
}

export const destructiveDeletePredicates: Record<string, Predicate> = {
  'destructive-delete/cloud-delete': forPrograms(CLOUD_CLIS, cloudDelete),
  'destructive-delete/cloud-wholesale-delete': forPrograms(CLOUD_CLIS, cloudWholesaleDelete),
};
