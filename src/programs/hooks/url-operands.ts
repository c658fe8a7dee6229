/**
 * Programs whose file operands may also be URLs they fetch: `javap http://h/C.class`,
 * `mediainfo https://h/v.mp4`, `gdalinfo /vsicurl/https://h/a.tif`, `okular https://h/a.pdf`. The spec gives the operands
 * the role `read` (a local file is a Read); an operand that is a URL also talks to the network.
 */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** A URL (`scheme://…` anywhere, as in `/vsizip//vsicurl/https://…`; `jar:…`) or one of GDAL's network file systems (`/vsis3/`…). */
const REMOTE = /:\/\/|^jar:|\/vsi(?:curl|s3|gs|az|adls|oss|swift|webhdfs|hdfs)/i;

function urlOperands(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  for (const a of p.operands) {
    if (a.dynamic || REMOTE.test(a.value)) b.add('Network', 'operand', a.span, { program: b.cmd.program ?? undefined, target: a.value, dynamic: a.dynamic });
  }
}

export const urlOperandHooks: ProgramHooks = { module: 'url-operands.ts', operations: urlOperands };
