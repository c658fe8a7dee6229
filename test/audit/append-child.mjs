// A separate process appending to one audit log through AuditLog (the built module), as concurrent hooks do.
// argv: FILE WRITER COUNT PAD MAXBYTES
import { AuditLog } from '../../dist/audit/log.js';

const [file, writer, count, pad, maxBytes] = process.argv.slice(2);
const log = new AuditLog(file, { maxBytes: Number(maxBytes), onError: (m) => process.stderr.write(m + '\n') });
for (let i = 0; i < Number(count); i++) {
  const ok = log.append({
    time: new Date().toISOString(),
    agent: 'claude-code',
    session: `w${writer}`,
    tool: 'Bash',
    family: 'shell',
    // Long lines make a torn or interleaved write show up as invalid JSON.
    command: `echo ${writer}:${i} ${'x'.repeat(Number(pad))}`,
    level: 'allow',
    layer: 'tool-default',
    rules: [],
    reason: 'every part is allowed',
    version: 'test',
    durationMs: 1,
  });
  if (!ok) process.exit(3);
}
