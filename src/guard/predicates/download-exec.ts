/** Named predicates for the download-exec rules (rules/builtin/download-exec.json). */
import type { Subject } from '../subject.js';
import { requires, type Predicate } from './programs.js';
import { interpreterFamily } from '../../programs/interpreters.js';
import { registry } from '../../programs/registry.js';

/** A literal IPv4 or bracketed/colon IPv6 host, not loopback. */
function isRawIp(host: string | undefined): boolean {
  if (!host) return false;
  const h = host.replace(/^\[|\]$/g, '');
  if (/^127\./.test(h) || h === '::1' || h === '0.0.0.0') return false;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(h) || (/^[0-9a-f:]+$/i.test(h) && h.includes(':'));
}

/** The command talks to a host given as a literal IP address (`curl http://10.0.0.1/x`, `< /dev/tcp/10.0.0.1/80`). */
function rawIpSource(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Network' && isRawIp(o.host));
}

/** The command runs program text read from its stdin (`sh`, `bash -s`, `python3 -`). */
function execsStdin(s: Subject): boolean {
  return s.cmd.execsStdin || s.ops.some((o) => o.kind === 'Exec' && o.source === 'stdin');
}

/**
 * A stdin-executing command fed by the network with a raw IP: an earlier stage of its pipeline
 * talks to a literal IP, or reads a file descriptor (`<&3`) that an earlier `exec 3<>/dev/tcp/IP/…`
 * opened. Droppers use raw addresses; vendor installers use names.
 */
function stdinFromRawIp(s: Subject): boolean {
  if (!execsStdin(s)) return false;
  const before = s.pipelineNeighbours('before');
  if (before.some(rawIpSource)) return true;
  const readsFd = before.some((b) => b.cmd.redirects.some((r) => r.dup && r.op.startsWith('<')));
  return (
    readsFd &&
    s.all.some((o) => o.cmd.id < s.cmd.id && o.cmd.redirects.some((r) => r.path !== null && /^\/dev\/(tcp|udp)\//.test(r.path.value)) && rawIpSource(o))
  );
}

/** Programs that fetch a file: the network fetchers, remote copies, and Windows' certutil (`-urlcache`). */
export const FETCH_PROGRAMS: ReadonlySet<string> = new Set([...registry.tagged('network-fetcher'), 'scp', 'rsync', 'certutil']);

/** The commands of a verdict that fetch from the network, found once per verdict. */
const fetchersOf = new WeakMap<Subject[], Subject[]>();
const NOTHING: ReadonlySet<string> = new Set();

/** Paths an earlier command on the line fetched from the network (its writes, or a named operand for tftp/ftp `get`). */
function fetchedPaths(s: Subject, rawIpOnly: boolean): ReadonlySet<string> {
  let fetchers = fetchersOf.get(s.all);
  if (!fetchers) {
    fetchers = s.all.filter((o) => (o.cmd.program !== null && FETCH_PROGRAMS.has(o.cmd.program)) || o.ops.some((x) => x.kind === 'Network'));
    fetchersOf.set(s.all, fetchers);
  }
  // Most lines fetch nothing before this command: no set to build.
  if (!fetchers.some((o) => o.cmd.id < s.cmd.id)) return NOTHING;
  const out = new Set<string>();
  for (const o of fetchers) {
    if (o.cmd.id >= s.cmd.id) continue;
    if (rawIpOnly && !rawIpSource(o)) continue;
    for (const op of o.ops) if (op.kind === 'Write' && op.path) out.add(op.path);
    // `tftp HOST -c get NAME`: the file lands in the working directory under its own name.
    if (o.cmd.cwd) {
      const args = o.cmd.args.map((a) => a.value);
      const gi = args.indexOf('get');
      if (gi >= 0 && gi + 1 < args.length) {
        const name = args[args.length - 1].split('/').pop()!;
        out.add(`${o.cmd.cwd.replace(/\/$/, '')}/${name}`);
      }
    }
  }
  return out;
}

/** `chmod +x F`, `chmod 755 F`, `chmod 777 F`: the mode makes a file executable. */
function makesExecutable(s: Subject): boolean {
  if (s.cmd.program !== 'chmod') return false;
  return s.cmd.args.some((a) => /^([ugoa]*[+=][rwxXst]*x|0?[0-7]?[1357][0-7]{2}|0?[0-7]?[0-7][1357][0-7]|0?[0-7]?[0-7]{2}[1357])$/.test(a.value));
}

/** Runs (Exec) or makes executable a file that an earlier command fetched. */
function runsFetched(s: Subject, rawIpOnly: boolean): boolean {
  const fetched = fetchedPaths(s, rawIpOnly);
  if (fetched.size === 0) return false;
  if (s.ops.some((o) => o.kind === 'Exec' && o.path !== undefined && fetched.has(o.path))) return true;
  if (makesExecutable(s) && s.ops.some((o) => o.kind === 'Write' && o.path !== undefined && fetched.has(o.path))) return true;
  // `curl -o /usr/local/bin/x URL && x`: a bare name resolved through PATH to the fetched file.
  const p = s.cmd.program;
  return p !== null && s.cmd.programPath === null && [...fetched].some((f) => /^\/(usr\/(local\/)?)?s?bin\//.test(f) && f.endsWith('/' + p));
}

/**
 * PowerShell that downloads and evaluates: `IEX (New-Object Net.WebClient).DownloadString(…)`,
 * `iex (iwr …)`, `Invoke-Expression (Invoke-RestMethod …)`. Bare arguments are a command line
 * for PowerShell too, so every argument is read, not only `-c`.
 */
function pwshDownloadEval(s: Subject): boolean {
  if (s.interpreter !== 'pwsh') return false;
  const text = s.cmd.args.map((a) => a.value).join(' ');
  return (
    /\b(iex|invoke-expression)\b/i.test(text) &&
    /(net\.webclient|downloadstring|downloaddata|\biwr\b|invoke-webrequest|\birm\b|invoke-restmethod|start-bitstransfer|https?:\/\/)/i.test(text)
  );
}

function isPwsh(program: string): boolean {
  return interpreterFamily(program) === 'pwsh';
}

/** The command is part of a script that was itself fed to a shell as text (`echo '…' | bash`, `bash <<< '…'`, `eval '…'`, `source <(…)`). */
function insideFedScript(s: Subject): boolean {
  return s.cmd.context.via.some((v) => v.startsWith('shell-stdin') || v.startsWith('eval') || v.startsWith('source'));
}

export const downloadExecPredicates: Record<string, Predicate> = {
  'download-exec/raw-ip-source': requires([{ features: ['Network'] }], rawIpSource),
  // Both ways need an earlier pipeline stage.
  'download-exec/stdin-from-raw-ip': requires([{ features: ['execs-stdin'] }, { features: ['pipeline'] }], stdinFromRawIp),
  'download-exec/runs-fetched-file': requires([{ features: ['line-fetches'] }], (s) => runsFetched(s, false)),
  'download-exec/runs-file-fetched-from-raw-ip': requires([{ features: ['line-fetches'] }], (s) => runsFetched(s, true)),
  'download-exec/pwsh-download-eval': requires([{ program: isPwsh }], pwshDownloadEval),
  'download-exec/inside-fed-script': insideFedScript,
};
