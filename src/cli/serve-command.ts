/**
 * `shellgate serve [--socket PATH] [--http PORT] [--token-file FILE] [--idle-timeout SECONDS]
 * [--workers N] [--deadline SECONDS] [--auth-timeout SECONDS] [--config FILE] [--preset NAME]…
 * [--mode MODE] [--workspace DIR]… [--no-agent-settings] [--audit-log FILE]`: the resident server (src/serve/). Prints one line saying where it listens,
 * then runs until SIGTERM/SIGINT or the idle timeout; SIGHUP re-reads the settings.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openAuditLog } from '../audit/config.js';
import { POLICY_OPTIONS, readPolicyFlags } from './policy-flags.js';
import type { PolicyOptions } from '../serve/protocol.js';
import { startServer } from '../serve/server.js';
import { defaultSocketPath } from '../serve/socket-path.js';
import { UsageError } from './args.js';

export const SERVE_USAGE = `usage: shellgate serve [--socket PATH] [--http PORT] [--token-file FILE] [--idle-timeout SECONDS]
                       [--workers N] [--deadline SECONDS] [--auth-timeout SECONDS]
                       [--config FILE] [--preset NAME]... [--mode MODE] [--workspace DIR]...
                       [--no-agent-settings] [--audit-log FILE] [--ask-as-deny]

Answer hook events as \`shellgate hook AGENT\` does, from one resident process per user, in
milliseconds. Clients: \`shellgate hook AGENT --server [SOCKET]\` (decides in-process when the
server is not there), or an agent's HTTP hook (Claude Code: POST /hook/claude-code).

  --socket PATH          Unix socket (default $XDG_RUNTIME_DIR/shellgate/sock, else
                         /tmp/shellgate-$UID/sock); its folder is created with mode 0700 and
                         refused if it exists with another mode or owner
  --http PORT            also listen on http://127.0.0.1:PORT (0: a free port, printed)
  --token-file FILE      HTTP bearer token: kept in FILE (0600) and reused across restarts;
                         default: a new token at each start in \`token\` next to the socket
  --idle-timeout SECONDS exit after this long without a request (default 3600; 0: never)
  --workers N            analysis threads (default: the cores available, at least 2, at most 8)
  --deadline SECONDS     a request not decided in this time is answered ask, saying so, and
                         its thread is replaced (default 5; decimals allowed)
  --auth-timeout SECONDS a connection that has not sent a request (socket) or the bearer token
                         (HTTP) in this time is closed (default 2; decimals allowed)
  other flags            as for \`shellgate hook\`; a hook client with other flags decides in-process

Prints one line saying where it listens. SIGHUP re-reads the settings (they are also watched);
a settings file that no longer loads keeps the previous policy. Exit status: 0 after SIGTERM,
SIGINT or the idle timeout, 1 if it cannot start, 64 usage error.`;

export interface ServeArgs {
  socket: string;
  httpPort: number | null;
  tokenFile: string | null;
  idleTimeoutSec: number;
  workers: number | undefined;
  deadlineMs: number | undefined;
  authTimeoutMs: number | undefined;
  policy: PolicyOptions;
}

/** Seconds, decimals allowed, as milliseconds: at least 1 ms, at most a day. */
function milliseconds(text: string, flag: string): number {
  const ms = Math.round(Number(text) * 1000);
  if (!/^\d+(\.\d+)?$/.test(text) || ms < 1 || ms > 86_400_000) throw new UsageError(`${flag} must be a number of seconds from 0.001 to 86400 (not "${text}")`);
  return ms;
}

function nonNegativeInteger(text: string, flag: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max} (not "${text}")`);
  return Number(text);
}

function positive(n: number, flag: string): number {
  if (n < 1) throw new UsageError(`${flag} must be at least 1`);
  return n;
}

export function parseServeArgs(argv: string[]): ServeArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        socket: { type: 'string' },
        http: { type: 'string' },
        'token-file': { type: 'string' },
        'idle-timeout': { type: 'string' },
        workers: { type: 'string' },
        deadline: { type: 'string' },
        'auth-timeout': { type: 'string' },
        ...POLICY_OPTIONS,
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const flags = readPolicyFlags(values);
  if (values['token-file'] !== undefined && values.http === undefined) throw new UsageError('--token-file is for the HTTP transport: add --http PORT');
  let socket: string;
  try {
    socket = resolve(values.socket ?? defaultSocketPath());
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    socket,
    httpPort: values.http !== undefined ? nonNegativeInteger(values.http, '--http', 65535) : null,
    tokenFile: values['token-file'] !== undefined ? resolve(values['token-file']) : null,
    idleTimeoutSec: values['idle-timeout'] !== undefined ? nonNegativeInteger(values['idle-timeout'], '--idle-timeout', 2 ** 31 / 1000 - 1) : 3600,
    workers: values.workers !== undefined ? positive(nonNegativeInteger(values.workers, '--workers', 256), '--workers') : undefined,
    deadlineMs: values.deadline !== undefined ? milliseconds(values.deadline, '--deadline') : undefined,
    authTimeoutMs: values['auth-timeout'] !== undefined ? milliseconds(values['auth-timeout'], '--auth-timeout') : undefined,
    policy: {
      ...flags,
      config: flags.config !== null ? resolve(flags.config) : null,
      auditLog: flags.auditLog !== null ? resolve(flags.auditLog) : null,
      shell: flags.shell ?? undefined,
    },
  };
}

/** Runs the server until it closes; the exit status. */
export async function runServe(argv: string[], version: string): Promise<number> {
  const args = parseServeArgs(argv);
  const log = (m: string): void => void process.stderr.write(`shellgate serve: ${m}\n`);
  let server;
  try {
    const p = args.policy;
    // The audit log as in `shellgate hook`: --audit-log, else `audit.file` in --config.
    const audit = openAuditLog(p.auditLog, p.config, (m) => log(`warning: ${m}`));
    server = await startServer({
      socketPath: args.socket,
      httpPort: args.httpPort,
      tokenFile: args.tokenFile,
      idleTimeoutSec: args.idleTimeoutSec,
      ...(args.workers !== undefined ? { workers: args.workers } : {}),
      ...(args.deadlineMs !== undefined ? { deadlineMs: args.deadlineMs } : {}),
      ...(args.authTimeoutMs !== undefined ? { limits: { authTimeoutMs: args.authTimeoutMs } } : {}),
      policy: p,
      version,
      ...(audit ? { record: (r) => audit.append(r) } : {}),
      log,
    });
  } catch (e) {
    log(`cannot start: ${(e as Error).message}`);
    return 1;
  }
  const s = server;
  const where = [`socket ${s.socketPath}`];
  if (s.httpUrl) where.push(`http ${s.httpUrl} (bearer token in ${s.tokenFile})`);
  process.stdout.write(`shellgate serve: listening on ${where.join(', ')}; ${s.peerCheck}\n`);
  const stop = (): void => void s.close();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGHUP', () => void s.reload('SIGHUP'));
  await s.closed;
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  return 0;
}
