/**
 * Named predicates for the download-exec rules (rules/builtin/download-exec.json): which fetches
 * feed a command that runs their content, and how far the places they fetch from are trusted
 * (`trustedInstallers`, src/guard/installer-urls.ts).
 */
import type { Subject } from '../subject.js';
import { NETCATS, requires, type Predicate } from './programs.js';
import { interpreterFamily } from '../../programs/interpreters.js';
import { registry } from '../../programs/registry.js';
import { stdinExec } from '../compile-parts.js';
import { DEFAULT_GUARD_SETTINGS, fetchKeepsTrust, isIpHost, isLoopback, type GuardSettings, type TrustedInstallers, type UrlTrust } from '../installer-urls.js';

/** A literal IP address other than loopback (`10.0.0.1`, `[2001:db8::1]`, `0x0a000001`). */
function isRawIp(host: string | undefined): boolean {
  if (!host) return false;
  // A host operand may be a whole URL (`curl -x http://proxy:3128`), `host:port`, or a bare IPv6 address.
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(host);
  let h: string;
  if (url) h = url[1];
  else if (/^[0-9a-f:]+$/i.test(host) && host.split(':').length > 2) h = `[${host}]`;
  else h = host.replace(/:\d*$/, '');
  return isIpHost(h) && !isLoopback(h);
}

/** The command talks to a host given as a literal IP address (`curl http://10.0.0.1/x`, `< /dev/tcp/10.0.0.1/80`). */
function rawIpSource(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Network' && isRawIp(o.host));
}

/**
 * A stdin-executing command fed by the network with a raw IP: an earlier stage of its pipeline
 * talks to a literal IP, or reads a file descriptor (`<&3`) that an earlier `exec 3<>/dev/tcp/IP/…`
 * opened. Droppers use raw addresses; vendor installers use names.
 */
function stdinFromRawIp(s: Subject): boolean {
  if (!stdinExec(s)) return false;
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
const RAW_CLIENTS: ReadonlySet<string> = new Set([...NETCATS, 'telnet']);

/**
 * The command fetches content from the network: a fetch tool, a netcat, an interpreter that
 * talks to the network, or any command reading a `/dev/tcp` socket. Other programs that use the
 * network (ssh, git, cloud CLIs) print their own output, not a file from a URL.
 */
function isFetcher(o: Subject): boolean {
  const p = o.cmd.program;
  if (p !== null && (FETCH_PROGRAMS.has(p) || RAW_CLIENTS.has(p))) return true;
  for (const op of o.ops) {
    if (op.kind !== 'Network') continue;
    if (op.source === 'redirect' || o.interpreter !== null) return true;
  }
  return false;
}

/** Options that make a fetcher read more URLs from a file: what it fetches is not on the line. */
const URL_FILE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  curl: ['-K', '--config'],
  wget: ['-i', '--input-file'],
  aria2c: ['-i', '--input-file'],
};

/** How far each place a fetcher fetches from is trusted; one `untrusted` when it is not known. */
function trustOf(o: Subject, trusted: TrustedInstallers): UrlTrust[] {
  const out: UrlTrust[] = [];
  // A proxy or a resolver address is a Network operation without a URL: not where the script comes from.
  for (const op of o.ops) if (op.kind === 'Network' && op.url !== undefined) out.push(trusted.classify(op.url, !op.dynamic));
  if (out.length === 0) {
    for (const op of o.ops) if (op.kind === 'Network' && isRawIp(op.host)) out.push({ kind: 'never', why: 'raw-ip' });
  }
  const fromFile = (o.cmd.program !== null && URL_FILE_OPTIONS[o.cmd.program]) || [];
  if (out.length === 0 || fromFile.some((f) => o.hasFlag(f)) || !fetchKeepsTrustOn(o)) out.push({ kind: 'untrusted' });
  return out;
}

/**
 * A trusted URL counts only when the fetch has no option outside the harmless list (a word that
 * may turn into an option counts as one) and nothing on the line up to it sets a variable: proxies,
 * CA bundles, CURL_HOME, WGETRC, HOME (its .curlrc) all come from the environment.
 */
function fetchKeepsTrustOn(o: Subject): boolean {
  if (o.parsed.maybeOptions.length > 0 || !fetchKeepsTrust(o.cmd.program, o.parsed.options)) return false;
  return !o.all.some((x) => x.cmd.id <= o.cmd.id && x.ops.some((op) => op.kind === 'Env' && op.target !== '*'));
}

/** The fetches a command runs the content of: piped into its stdin, substituted into its code, or downloaded and run. */
function fetchesRunBy(s: Subject): Subject[] {
  const out: Subject[] = [];
  const p = s.cmd.context.pipeline;
  // `bash -n` reads the script without running it.
  if (p && stdinExec(s) && !s.hasFlag('-n')) {
    for (const o of s.all) {
      const q = o.cmd.context.pipeline;
      if (q && q.id === p.id && q.index < p.index && isFetcher(o)) out.push(o);
    }
  }
  if (runsSubstitutedCode(s)) for (const o of s.feeders()) if (isFetcher(o)) out.push(o);
  for (const o of downloadsRunBy(s)) if (!out.includes(o)) out.push(o);
  return out;
}

const SHELLS: ReadonlySet<string> = new Set([...registry.tagged('shell'), 'busybox']);

/** The command runs a substitution's output as program text: `sh -c "$(…)"`, `sh <(…)`, `eval`, `source`, `python -c "$(…)"`. */
function runsSubstitutedCode(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || s.feeders().length === 0) return false;
  if (p === 'eval' || p === 'source' || p === '.') return true;
  const isShell = SHELLS.has(p);
  if (!isShell && s.interpreter === null) return false;
  // `sh <(curl …)`, `python3 <(curl …)`: the substitution's file is the script run.
  if (s.ops.some((o) => o.kind === 'Exec' && o.path?.startsWith('/dev/fd/'))) return true;
  if (isShell) return s.hasFlag('-c') || s.cmd.args.some((a) => /^-[a-zA-Z]*c$/.test(a.value));
  return s.cmd.args.some((a) => /^-(c|e|E|r|-eval|command)$/.test(a.value));
}

/** Every fetch a command runs, and how far each place they fetch from is trusted. */
function sourceTrust(s: Subject, trusted: TrustedInstallers): UrlTrust[] | null {
  const fetches = fetchesRunBy(s);
  if (fetches.length === 0) return null;
  return fetches.flatMap((o) => trustOf(o, trusted));
}

/** The command runs fetched content, and every place it comes from is a trusted installer. */
function runsTrustedOnly(trusted: TrustedInstallers): (s: Subject) => boolean {
  return (s) => sourceTrust(s, trusted)?.every((t) => t.kind === 'trusted') ?? false;
}

/** The command runs fetched content from a place that is not trusted, though it could be (no never-trusted place among them). */
function runsUntrusted(trusted: TrustedInstallers): (s: Subject) => boolean {
  return (s) => {
    const t = sourceTrust(s, trusted);
    return t !== null && t.some((x) => x.kind === 'untrusted') && !t.some((x) => x.kind === 'never');
  };
}

/** The command runs fetched content from plain http, a non-default port, a URL shortener or a paste site. Raw IPs: raw-ip-to-shell. */
function runsNeverTrusted(trusted: TrustedInstallers): (s: Subject) => boolean {
  return (s) => sourceTrust(s, trusted)?.some((x) => x.kind === 'never' && x.why !== 'raw-ip') ?? false;
}

/** The command runs content some fetch produced (whatever its trust). */
function runsFetched(s: Subject): boolean {
  return fetchesRunBy(s).length > 0;
}

/** The commands of a verdict that fetch a file, found once per verdict. */
const fetchersOf = new WeakMap<Subject[], Subject[]>();
const NO_FILES: ReadonlyMap<string, Subject[]> = new Map();

/**
 * Files an earlier command on the line fetched from the network, with the commands that fetched
 * them: their writes, the remote name `curl -O` saves under, or a named operand for tftp/ftp `get`.
 */
function fetchedFiles(s: Subject): ReadonlyMap<string, Subject[]> {
  let fetchers = fetchersOf.get(s.all);
  if (!fetchers) {
    fetchers = s.all.filter((o) => (o.cmd.program !== null && FETCH_PROGRAMS.has(o.cmd.program)) || o.ops.some((x) => x.kind === 'Network'));
    fetchersOf.set(s.all, fetchers);
  }
  // Most lines fetch nothing before this command: no map to build.
  if (!fetchers.some((o) => o.cmd.id < s.cmd.id)) return NO_FILES;
  const out = new Map<string, Subject[]>();
  const add = (path: string, o: Subject): void => {
    const list = out.get(path);
    if (list) list.push(o);
    else out.set(path, [o]);
  };
  for (const o of fetchers) {
    if (o.cmd.id >= s.cmd.id) continue;
    for (const op of o.ops) if (op.kind === 'Write' && op.path) add(op.path, o);
    for (const name of landingNames(o)) add(`${o.cmd.cwd!.replace(/\/$/, '')}/${name}`, o);
  }
  return out;
}

/** Names a fetch saves under in its working directory that its operations do not list. */
function landingNames(o: Subject): string[] {
  if (!o.cmd.cwd) return [];
  const out: string[] = [];
  const args = o.cmd.args.map((a) => a.value);
  // `tftp HOST -c get NAME`: the file lands in the working directory under its own name.
  const gi = args.indexOf('get');
  if (gi >= 0 && gi + 1 < args.length) out.push(args[args.length - 1].split('/').pop()!);
  // `curl -O URL`: saved under the last segment of the URL's path.
  if (o.cmd.program === 'curl' && (o.hasFlag('-O') || o.hasFlag('--remote-name') || o.hasFlag('--remote-name-all'))) {
    for (const op of o.ops) {
      const name = op.kind === 'Network' && op.url ? /^[^?#]*\/([^/?#]+)(?:[?#]|$)/.exec(op.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''))?.[1] : undefined;
      if (name) out.push(name);
    }
  }
  return out;
}

/** `chmod +x F`, `chmod 755 F`, `chmod 777 F`: the mode makes a file executable. */
function makesExecutable(s: Subject): boolean {
  if (s.cmd.program !== 'chmod') return false;
  return s.cmd.args.some((a) => /^([ugoa]*[+=][rwxXst]*x|0?[0-7]?[1357][0-7]{2}|0?[0-7]?[0-7][1357][0-7]|0?[0-7]?[0-7]{2}[1357])$/.test(a.value));
}

/** The fetches whose downloaded file this command runs (an Exec of it, or a bare name PATH resolves to it). */
function downloadsRunBy(s: Subject): Subject[] {
  const fetched = fetchedFiles(s);
  if (fetched.size === 0) return [];
  const out: Subject[] = [];
  for (const o of s.ops) if (o.kind === 'Exec' && o.path !== undefined) out.push(...(fetched.get(o.path) ?? []));
  // `curl -o /usr/local/bin/x URL && x`: a bare name resolved through PATH to the fetched file.
  const p = s.cmd.program;
  if (p !== null && s.cmd.programPath === null) {
    for (const [f, by] of fetched) if (/^\/(usr\/(local\/)?)?s?bin\//.test(f) && f.endsWith('/' + p)) out.push(...by);
  }
  return out;
}

/** A fetched file is made executable (`chmod +x`); running it is runsFetched's. */
function chmodsFetched(s: Subject): boolean {
  if (!makesExecutable(s)) return false;
  const fetched = fetchedFiles(s);
  return s.ops.some((o) => o.kind === 'Write' && o.path !== undefined && fetched.has(o.path));
}

/** Runs or makes executable a file that an earlier command fetched from a literal IP address. */
function runsFileFromRawIp(s: Subject): boolean {
  if (downloadsRunBy(s).some(rawIpSource)) return true;
  if (!makesExecutable(s)) return false;
  const fetched = fetchedFiles(s);
  return s.ops.some((o) => o.kind === 'Write' && o.path !== undefined && (fetched.get(o.path) ?? []).some(rawIpSource));
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

/**
 * A predicate that reads the analyser's settings: compiled rules get the one made from their
 * analyser's settings (`bind`); the predicate itself, for the index and tests, uses the defaults.
 */
function withSettings(needs: Parameters<typeof requires>[0], make: (trusted: TrustedInstallers) => (s: Subject) => boolean): Predicate {
  return Object.assign(requires(needs, make(DEFAULT_GUARD_SETTINGS.trustedInstallers)), {
    bind: (g: GuardSettings) => make(g.trustedInstallers),
  });
}

const LINE_FETCHES = [{ features: ['line-fetches'] }] as const;

export const downloadExecPredicates: Record<string, Predicate> = {
  'download-exec/raw-ip-source': requires([{ features: ['Network'] }], rawIpSource),
  // Both ways need an earlier pipeline stage.
  'download-exec/stdin-from-raw-ip': requires([{ features: ['execs-stdin'] }, { features: ['pipeline'] }], stdinFromRawIp),
  'download-exec/runs-fetched': requires(LINE_FETCHES, runsFetched),
  'download-exec/runs-trusted-installer': withSettings(LINE_FETCHES, runsTrustedOnly),
  'download-exec/runs-untrusted-fetch': withSettings(LINE_FETCHES, runsUntrusted),
  'download-exec/runs-never-trusted-fetch': withSettings(LINE_FETCHES, runsNeverTrusted),
  'download-exec/runs-fetched-file': requires(LINE_FETCHES, (s) => downloadsRunBy(s).length > 0),
  'download-exec/chmods-fetched-file': requires(LINE_FETCHES, chmodsFetched),
  'download-exec/runs-file-fetched-from-raw-ip': requires(LINE_FETCHES, runsFileFromRawIp),
  'download-exec/pwsh-download-eval': requires([{ program: isPwsh }], pwshDownloadEval),
  'download-exec/inside-fed-script': insideFedScript,
};
