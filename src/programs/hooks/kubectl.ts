/** kubectl: `version` asks the API server for its version unless `--client` is given. */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * `kubectl version` contacts the cluster; `kubectl version --client` prints the client's version
 * only (kubectl version --help: "If true, shows client version only (no server required)"). A
 * spec's `ops` cannot be taken away by an option, so the spec lists no Network for `version` and
 * this hook adds it.
 */
function kubectl(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || p.subcommands.length !== 1 || p.subcommands[0] !== 'version') return;
  // `--client=false` (or a value not known statically) still asks the server.
  const clientOnly = p.options.some((o) => o.name === '--client' && (o.value === null || (!o.value.dynamic && o.value.value === 'true')));
  if (!clientOnly) b.add('Network', 'program', b.cmd.span, { program: 'kubectl', target: 'the cluster API server' });
}

export const kubectlHooks: ProgramHooks = { module: 'kubectl.ts', operations: kubectl };
