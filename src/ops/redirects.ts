/** Redirections as operations: `>` writes, `<` reads, `/dev/tcp/HOST/PORT` talks to the network. */
import type { RedirectTarget } from '../walk/types.js';
import type { OpBuilder } from './op-builder.js';

const NET_DEVICE = /^\/dev\/(tcp|udp)\/([^/]+)\/([^/]+)$/;

export function redirectOps(b: OpBuilder, redirects: RedirectTarget[]): void {
  for (const r of redirects) {
    if (!r.path || r.inherited) continue; // fd duplication, heredoc, here-string; or the wrapper's
    const net = NET_DEVICE.exec(r.path.value);
    if (net) {
      b.add('Network', 'redirect', r.span, { host: net[2], target: r.path.value, dynamic: r.path.dynamic });
      continue;
    }
    const reads = r.op === '<' || r.op === '<>' || r.op === '<&';
    const writes = r.op !== '<' && r.op !== '<&';
    if (reads) b.path('Read', r.path, 'redirect');
    if (writes) b.path('Write', r.path, 'redirect');
  }
}
