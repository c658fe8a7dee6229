/** kubectl: every command contacts the cluster's API server. */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * kubectl contacts the API server its kubeconfig names (127.0.0.1:8080 with none) at every start:
 * traced with kubectl 1.3x, `kubectl config view`, `kubectl version --client` and `kubectl --help`
 * all connect, although their help says `--client` needs no server. So every command line carries
 * the Network operation, whatever its subcommand (a spec's `ops` hold at their own level only).
 */
function kubectl(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  b.add('Network', 'program', b.cmd.span, { program: 'kubectl', target: 'the cluster API server' });
}

export const kubectlHooks: ProgramHooks = { module: 'kubectl.ts', operations: kubectl };
