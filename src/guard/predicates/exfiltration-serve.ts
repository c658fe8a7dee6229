/**
 * Named predicates for exfiltration by serving files (rules/builtin/exfiltration.json): a web
 * server rooted at a sensitive directory, an open kube proxy, tailscale serve.
 */
import type { Subject } from '../subject.js';
import { isSecretPath, textNamesSecret } from './exfiltration-secrets.js';
import { forPrograms, requires, type Predicate } from './programs.js';

export const HOME_DIR = /^\/(home|Users)\/[^/]+\/?$|^\/root\/?$/;
const EXPOSED_DIR = /^\/$|^\/(home|Users|etc|root|var|usr|proc|boot|srv|opt)\/?$/;

function exposesDir(dir: string | null | undefined): boolean {
  if (!dir) return false;
  const d = dir.replace(/\/+$/, '') || '/';
  return HOME_DIR.test(d) || EXPOSED_DIR.test(d) || isSecretPath(d) || /\/\.(ssh|aws|gnupg|kube|config)$/.test(d);
}

function optionValue(s: Subject, names: string[]): string | null {
  const o = s.parsed.options.find((x) => names.includes(x.name) && x.value !== null);
  if (o) return o.value!.value;
  // no spec for the program: look for `--name value` / `--name=value` in the words
  const args = s.cmd.args.map((a) => a.value);
  for (let i = 0; i < args.length; i++) {
    for (const n of names) {
      if (args[i] === n && i + 1 < args.length) return args[i + 1];
      if (args[i].startsWith(n + '=')) return args[i].slice(n.length + 1);
    }
  }
  return null;
}

/** The programs servesSensitiveDir reads (checked before it splits the arguments). */
const WEB_SERVERS = new Set([
  'httpd',
  'busybox',
  'http-server',
  'serve',
  'live-server',
  'webfsd',
  'updog',
  'miniserve',
  'npx',
  'bunx',
  'pnpx',
  'caddy',
  'twistd',
]);
const SERVER_INTERPRETERS = /^(python[0-9.]*|pypy3?|php[0-9.]*|ruby[0-9.]*)$/;

/**
 * A web server whose document root is `/`, a home directory, a system directory or a secret
 * directory: `python3 -m http.server --directory /`, `cd ~ && python -m http.server`,
 * `php -S 0.0.0.0:80 -t /`, `busybox httpd -h /`, `ruby -run -e httpd /`. Anyone who can reach
 * the port reads ~/.ssh, ~/.aws and every .env.
 */
function servesSensitiveDir(s: Subject): boolean {
  return exposesDir(servedDir(s));
}

const TEMP_DIR = /^\/(tmp|var\/tmp|dev\/shm|private\/tmp|private\/var\/tmp)\/?$/;

/** The same web servers rooted at a temporary directory, where collected data is staged. */
function servesTempDir(s: Subject): boolean {
  const dir = servedDir(s);
  return dir !== null && TEMP_DIR.test(dir);
}

/** The directory a web server command publishes (its option, operand or working directory), or null for any other command. */
function servedDir(s: Subject): string | null {
  const p = s.cmd.program;
  if (p === null || !(WEB_SERVERS.has(p) || SERVER_INTERPRETERS.test(p))) return null;
  const args = s.cmd.args.map((a) => a.value);
  if (/^python[0-9.]*$|^pypy3?$/.test(p)) {
    const mi = args.indexOf('-m');
    const mod = mi >= 0 ? args[mi + 1] : args.find((a) => a.startsWith('-m') && a.length > 2)?.slice(2);
    if (mod !== 'http.server' && mod !== 'SimpleHTTPServer' && mod !== 'uploadserver' && mod !== 'updog') return null;
    return optionValue(s, ['--directory', '-d']) ?? s.cmd.cwd;
  }
  if (/^php[0-9.]*$/.test(p)) {
    if (!args.some((a) => a === '-S' || a.startsWith('-S'))) return null;
    return optionValue(s, ['-t']) ?? s.cmd.cwd;
  }
  if (p === 'httpd' && s.ancestors().some((a) => a.cmd.program === 'busybox')) return optionValue(s, ['-h']) ?? s.cmd.cwd;
  if (p === 'busybox' && args[0] === 'httpd') return optionValue(s, ['-h']) ?? s.cmd.cwd;
  if (/^ruby[0-9.]*$/.test(p) && args.some((a) => a === '-run' || a === '-run,httpd') && args.includes('httpd')) {
    return args.filter((a) => !a.startsWith('-') && a !== 'httpd').pop() ?? s.cmd.cwd;
  }
  if (p === 'http-server' || p === 'serve' || p === 'live-server' || p === 'webfsd' || p === 'updog' || p === 'miniserve') {
    const dir = optionValue(s, ['-d', '--directory', '-r', '--root']) ?? s.parsed.operands.map((a) => a.value).find((a) => a.startsWith('/') || a === '~');
    return dir ?? s.cmd.cwd;
  }
  if ((p === 'npx' || p === 'bunx' || p === 'pnpx') && ['http-server', 'serve', 'live-server'].includes(args[0] ?? '')) {
    return args.slice(1).find((a) => a.startsWith('/')) ?? s.cmd.cwd;
  }
  if (p === 'caddy' && args[0] === 'file-server') return optionValue(s, ['--root', '-r']) ?? s.cmd.cwd;
  if (p === 'twistd' && args.includes('web')) return optionValue(s, ['--path']);
  return null;
}

/** `kubectl proxy --address=0.0.0.0 --accept-hosts='.*'`: the cluster API, unauthenticated, on every interface. */
function openKubeProxy(s: Subject): boolean {
  if (s.cmd.program !== 'kubectl' && s.cmd.program !== 'oc') return false;
  if (!s.cmd.args.some((a) => a.value === 'proxy')) return false;
  const addr = optionValue(s, ['--address']);
  return addr !== null && !/^(127\.|localhost$|::1$)/.test(addr);
}

/** `tailscale serve|funnel` of a secret file, the root or a home directory. */
function tailscaleServesSecret(s: Subject): boolean {
  if (s.cmd.program !== 'tailscale') return false;
  const args = s.cmd.args.map((a) => a.value);
  if (args[0] !== 'serve' && args[0] !== 'funnel') return false;
  return args.slice(1).some((a) => !a.startsWith('-') && (textNamesSecret(' ' + a) || exposesDir(a)));
}

export const serveExfiltrationPredicates: Record<string, Predicate> = {
  // Not declared as programs: python/php/ruby are matched with version suffixes.
  'exfiltration/serves-sensitive-dir': requires([{ program: (p) => WEB_SERVERS.has(p) || SERVER_INTERPRETERS.test(p) }], servesSensitiveDir),
  'exfiltration/serves-temp-dir': requires([{ program: (p) => WEB_SERVERS.has(p) || SERVER_INTERPRETERS.test(p) }], servesTempDir),
  'exfiltration/open-kube-proxy': forPrograms(['kubectl', 'oc'], openKubeProxy),
  'exfiltration/tailscale-serves-secret': forPrograms(['tailscale'], tailscaleServesSecret),
};
