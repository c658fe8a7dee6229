/**
 * Where a script that a shell is about to run was fetched from, and whether the user trusts it:
 * the `trustedInstallers` setting (URL prefixes over https) and the hosts that are never trusted
 * (plain http, literal IP addresses, non-default ports, URL shorteners, paste sites).
 *
 * A URL is trusted only when its text is read the same way by every client that could fetch it:
 * https, a plain host name (no user info, no percent-escapes, no backslash), the default port,
 * and a path without dot segments or URL globs. Anything else is compared as untrusted, never
 * normalised into a trusted reading (`https://sh.rustup.rs\@evil.example` is evil.example to curl;
 * curl expands `{a,b}` and `[1-3]` and then removes dot segments, so `{..,x}` climbs out of a prefix).
 *
 * A trusted URL only counts when nothing else about the fetch moves the connection or what it
 * believes: `fetchKeepsTrust` accepts a short list of options known to be harmless for each
 * fetcher; every other option (`--resolve`, `-x`, `-k`, `--cacert`, `-K`, `wget -e`…) makes
 * the fetch untrusted.
 */

/** Why a URL can never be trusted, whatever the settings say. */
export type NeverTrusted = 'raw-ip' | 'plain-http' | 'port' | 'shortener' | 'paste-site';

export type UrlTrust = { kind: 'trusted' } | { kind: 'untrusted' } | { kind: 'never'; why: NeverTrusted };

/** One `trustedInstallers` entry, parsed: an exact host and a path prefix ending at a `/` boundary. */
export interface TrustedPrefix {
  readonly entry: string;
  readonly host: string;
  /** `` (the whole host) or `/a/b` (that path and everything under it), without a trailing `/`. */
  readonly path: string;
}

/**
 * The vendor installers trusted out of the box: each vendor's documented one-liner (read
 * 2026-12-03 on each project's install page). Users add to this list; they cannot shorten it,
 * but a deny rule naming the URL (`Bash(curl https://get.docker.com*)`) outvotes it.
 */
export const DEFAULT_TRUSTED_INSTALLERS: readonly string[] = [
  'https://sh.rustup.rs', // rustup: curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh
  'https://raw.githubusercontent.com/Homebrew/install/', // Homebrew: /bin/bash -c "$(curl -fsSL …/HEAD/install.sh)"
  'https://raw.githubusercontent.com/nvm-sh/nvm/', // nvm: curl -o- …/v0.40.x/install.sh | bash
  'https://bun.sh/install', // bun: curl -fsSL https://bun.sh/install | bash
  'https://bun.com/install', // bun since v1.4
  'https://deno.land/install.sh', // deno: curl -fsSL https://deno.land/install.sh | sh
  'https://deno.land/x/install/install.sh', // deno's earlier documented URL
  'https://get.docker.com', // Docker's convenience script
  'https://astral.sh/uv/', // uv: curl -LsSf https://astral.sh/uv/install.sh | sh (or …/uv/VERSION/install.sh)
  'https://get.pnpm.io/', // pnpm: curl -fsSL https://get.pnpm.io/install.sh | sh -
  'https://install.python-poetry.org', // poetry: curl -sSL https://install.python-poetry.org | python3 -
];

/** URL shorteners: where the link leads is decided by whoever owns the short code. */
const SHORTENERS: readonly string[] = [
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'is.gd',
  'v.gd',
  'ow.ly',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'rb.gy',
  'tiny.cc',
  't.ly',
  's.id',
  'git.io',
];

/** Paste and anonymous file-drop sites: anyone can publish there, and payloads are staged there. */
const PASTE_SITES: readonly string[] = [
  'pastebin.com',
  'paste.ee',
  'hastebin.com',
  'hastebin.skyra.pw',
  'ghostbin.com',
  'ghostbin.co',
  'transfer.sh',
  'termbin.com',
  'ix.io',
  'sprunge.us',
  'dpaste.com',
  'dpaste.org',
  'paste.rs',
  'pastie.org',
  '0x0.st',
  'controlc.com',
  'rentry.co',
  'rentry.org',
  'justpaste.it',
  'file.io',
  'temp.sh',
];

/** A host name as DNS spells it: labels of letters, digits and hyphens. */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

function inList(host: string, list: readonly string[]): boolean {
  return list.some((d) => host === d || host.endsWith('.' + d));
}

/**
 * The host is an IP address in any spelling a resolver accepts: dotted, decimal (`2130706433`),
 * hex (`0x7f000001`), octal (`0177.0.0.1`), shortened (`127.1`), or a bracketed IPv6 address.
 */
export function isIpHost(host: string): boolean {
  if (host.startsWith('[')) return true;
  if (!/^[0-9a-fx.]+$/i.test(host) || !/^[0-9]|^0x/i.test(host)) return false;
  try {
    // WHATWG's host parser reads every numeric spelling inet_aton does.
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(new URL(`http://${host}/`).hostname);
  } catch {
    return false;
  }
}

/** The loopback and unspecified addresses: a local server, not a dropper's host. */
export function isLoopback(host: string): boolean {
  if (host === '[::1]' || host === '[::]') return true;
  try {
    const h = new URL(`http://${host}/`).hostname;
    return /^127\./.test(h) || h === '0.0.0.0';
  } catch {
    return false;
  }
}

interface UrlParts {
  /** Lowercased scheme, or null when the URL has none (curl and wget then use plain http). */
  scheme: string | null;
  userinfo: boolean;
  host: string;
  port: string | null;
  path: string;
  /** Characters curl and a WHATWG parser could read differently, or escapes in host or path. */
  ambiguous: boolean;
}

/** Split a URL the way curl does: the authority ends at the first `/`, `?` or `#`. */
function splitUrl(url: string): UrlParts | null {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#]*)([^?#]*)/i.exec(url);
  if (!m) return null;
  const authority = m[2];
  const at = authority.lastIndexOf('@');
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  const hp = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort);
  if (!hp || hp[1] === '') return null;
  const path = m[3];
  const ambiguous = /[\\%\s\x00-\x1f\x7f{}]/.test(authority + path) || /[{}[\]]/.test(path) || /(^|\/)\.\.?(\/|$)/.test(path) || /[^\x21-\x7e]/.test(url);
  return { scheme: m[1]?.toLowerCase() ?? null, userinfo: at >= 0, host: hp[1].toLowerCase(), port: hp[2] ?? null, path, ambiguous };
}

/** Why a URL could never be trusted, or null. Literal IPs first: the most telling reason. */
function neverTrusted(u: UrlParts): NeverTrusted | null {
  if (isIpHost(u.host) && !isLoopback(u.host)) return 'raw-ip';
  if (u.scheme !== 'https') return 'plain-http';
  if (u.port !== null && u.port !== '' && u.port !== '443') return 'port';
  if (inList(u.host, SHORTENERS)) return 'shortener';
  if (inList(u.host, PASTE_SITES)) return 'paste-site';
  if (isIpHost(u.host)) return 'raw-ip';
  return null;
}

/** Read one `trustedInstallers` entry; a string says what is wrong with it. */
export function parseTrustedPrefix(entry: unknown): TrustedPrefix | string {
  if (typeof entry !== 'string') return 'must be a URL prefix string such as "https://sh.rustup.rs"';
  const u = splitUrl(entry);
  const shape = 'must be https://HOST or https://HOST/PATH (a host name, no user, port, query or fragment)';
  if (!u || u.scheme === null || /[?#@]/.test(entry)) return shape;
  const never = neverTrusted(u);
  if (never !== null) return `can never be trusted: ${NEVER_TEXT[never]}`;
  if (u.userinfo || u.port !== null || u.ambiguous || !HOST_NAME.test(u.host)) return shape;
  return { entry, host: u.host, path: u.path.replace(/\/+$/, '') };
}

/** What each never-trusted reason means, for messages and config errors. */
export const NEVER_TEXT: Record<NeverTrusted, string> = {
  'raw-ip': 'a literal IP address is not a vendor (droppers use them)',
  'plain-http': 'without https anyone on the path can replace the script',
  port: 'a non-default port is not a vendor installer',
  shortener: 'a URL shortener can be pointed anywhere at any time',
  'paste-site': 'anyone can publish on a paste or file-drop site',
};

/** The trusted prefixes in force: the built-in ones plus the user's. */
export class TrustedInstallers {
  private constructor(readonly prefixes: readonly TrustedPrefix[]) {}

  /** The built-in list plus `extra`; throws `what(entry, problem)` for the first bad entry. */
  static from(extra: readonly unknown[], what: (entry: unknown, index: number, problem: string) => never): TrustedInstallers {
    const out: TrustedPrefix[] = [];
    for (const e of DEFAULT_TRUSTED_INSTALLERS) out.push(parseTrustedPrefix(e) as TrustedPrefix);
    extra.forEach((e, i) => {
      const p = parseTrustedPrefix(e);
      if (typeof p === 'string') what(e, i, p);
      out.push(p);
    });
    return new TrustedInstallers(out);
  }

  static readonly DEFAULT: TrustedInstallers = TrustedInstallers.from([], () => {
    throw new Error('unreachable: the built-in trusted installers are valid');
  });

  /**
   * How far a fetched URL is trusted. `known` is false when any part of it is decided at run
   * time (a variable, a substitution): such a URL is never trusted.
   */
  classify(url: string, known: boolean): UrlTrust {
    const u = splitUrl(url);
    if (!u) return { kind: 'untrusted' };
    const never = neverTrusted(u);
    if (never !== null && known) return { kind: 'never', why: never };
    if (!known || never !== null || u.userinfo || u.ambiguous || (u.port !== null && u.port !== '443') || !HOST_NAME.test(u.host)) return { kind: 'untrusted' };
    const trusted = this.prefixes.some((p) => p.host === u.host && (p.path === '' || u.path === p.path || u.path.startsWith(p.path + '/')));
    return trusted ? { kind: 'trusted' } : { kind: 'untrusted' };
  }
}

/**
 * Options of curl and wget that change neither where the fetch connects nor which certificates
 * it believes nor what it fetches: output, verbosity, failure and retry behaviour, timeouts,
 * protocol restrictions. `-L` follows redirects: where the trusted host redirects to is that
 * host's choice, as the script it serves is. Anything not listed (`--resolve`, `--connect-to`,
 * `-x`, `-k`, `--cacert`, `--doh-url`, `-K`, `-H`, `-C`, `wget -e`, `--config`, `-i`, `-r`…)
 * makes the fetch untrusted. Values are free unless `VALUES` pins them.
 */
const HARMLESS_FETCH_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  curl: new Set([
    ...['-f', '--fail', '--fail-with-body', '-s', '--silent', '-S', '--show-error', '-L', '--location'],
    ...['-o', '--output', '-O', '--remote-name', '-#', '--progress-bar', '--no-progress-meter', '-v', '--verbose'],
    ...['--proto', '--proto-redir', '--tlsv1.2', '--tlsv1.3', '-4', '--ipv4', '-6', '--ipv6', '--compressed'],
    ...['--retry', '--retry-delay', '--retry-max-time', '--retry-connrefused', '--retry-all-errors', '--connect-timeout', '-m', '--max-time'],
    // -q, first on the line, skips ~/.curlrc: safer, never less safe.
    ...['-q', '--disable'],
  ]),
  wget: new Set([
    ...['-q', '--quiet', '-v', '--verbose', '-n', '-O', '--output-document', '--show-progress', '--progress'],
    ...['--https-only', '-4', '--inet4-only', '-6', '--inet6-only', '-t', '--tries', '-T', '--timeout', '--no-config'],
  ]),
};

/** Values an option must have to stay harmless: wget's `-n` is a family (`-nv` quiet, `-nH`, `-nd`…). */
const VALUES: Readonly<Record<string, RegExp>> = { 'wget -n': /^v$/ };

/** An option of a fetch as a guard sees it. */
export interface FetchOption {
  readonly name: string;
  readonly value: { readonly value: string; readonly dynamic: boolean } | null;
}

/**
 * Does a fetch with these options still fetch exactly the URL it names, over a connection it
 * verifies? Only options of HARMLESS_FETCH_OPTIONS; a fetcher without a list, only with none.
 */
export function fetchKeepsTrust(program: string | null, options: readonly FetchOption[]): boolean {
  const harmless = (program !== null && HARMLESS_FETCH_OPTIONS[program]) || new Set<string>();
  return options.every((o) => {
    if (!harmless.has(o.name)) return false;
    const pinned = VALUES[`${program} ${o.name}`];
    return pinned === undefined || (o.value !== null && !o.value.dynamic && pinned.test(o.value.value));
  });
}

/** What guard predicates may read from the analyser's settings. */
export interface GuardSettings {
  readonly trustedInstallers: TrustedInstallers;
}

export const DEFAULT_GUARD_SETTINGS: GuardSettings = { trustedInstallers: TrustedInstallers.DEFAULT };
