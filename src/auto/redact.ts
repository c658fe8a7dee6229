/**
 * Secrets shellgate can recognise are removed before anything leaves the process (the classifier
 * request, the audit log): provider keys and tokens, private keys, JWTs, credentials in URLs and
 * HTTP headers, values of variables and options named like secrets, and the password options of
 * the programs agents most often pass one to (`mysql -pSECRET`, `sshpass -p`, `curl -u u:p`).
 *
 * The redacted text keeps its shape: quotes, operators (`;`, `|`, `&`) and the words around a
 * secret stay, so the command still reads (and parses) as the same command line. When unsure
 * the text is redacted: a few harmless words lost from a log cost less than one leaked token.
 */

/**
 * What a value may be: a quoted string, or an unquoted word up to a space, a quote or an operator.
 * Not a `$VAR` or `$(…)`: a reference is not the secret, and the command keeps its shape; not a
 * secret an earlier pattern already replaced.
 */
const VALUE = String.raw`(?!\$|\[REDACTED)(?:"[^"]*"|'[^']*'|[^\s"'\`;|&<>()]+)`;

/** Words that make a variable, key or header name a secret's (`GITHUB_TOKEN`, `apiKey`, `X-Api-Key`, `DB_PASSWORD`). */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]{0,40}?(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|(?<![A-Za-z])(?:PASS|AUTH|CREDS|COOKIE)(?![A-Za-z])|(?<=_)PWD(?![A-Za-z]))[A-Za-z0-9_]{0,40}`;

/** Programs whose short option carries a password, and how (`-pSECRET` only for mysql: `-p` alone prompts). */
const PASSWORD_SHORT_OPTIONS: { programs: string; option: string; attachedOnly: boolean }[] = [
  { programs: 'mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mysqlslap|mariadb(?:-[a-z]+)?', option: 'p', attachedOnly: true },
  { programs: 'sshpass', option: 'p', attachedOnly: false },
  { programs: 'mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport', option: 'p', attachedOnly: false },
  { programs: 'redis-cli', option: 'a', attachedOnly: false },
  // `docker login -p X`: -p is a password only after `login`.
  { programs: String.raw`(?:docker|podman|buildah|skopeo|nerdctl|helm\s+registry)\s+login`, option: 'p', attachedOnly: false },
];

/** Within one simple command: the words after the program, up to an operator; the first match wins (`sshpass -p pw ssh -p 22`). */
const SAME_COMMAND = String.raw`(?:\s[^|;&\n]*?)??\s`;

const PATTERNS: [RegExp, string][] = [
  // PEM blocks (`RSA`, `EC`, `OPENSSH`, `ENCRYPTED` private keys, `PGP PRIVATE KEY BLOCK`), to their end or the end of the text.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|$)/g, '[REDACTED PRIVATE KEY]'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '[REDACTED AWS KEY]'],
  [/\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}\b/g, '[REDACTED GITHUB TOKEN]'],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g, '[REDACTED API KEY]'],
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, '[REDACTED API KEY]'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, '[REDACTED SLACK TOKEN]'],
  [/\bhttps:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, '[REDACTED SLACK WEBHOOK]'],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, '[REDACTED GITLAB TOKEN]'],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, '[REDACTED NPM TOKEN]'],
  [/\bhf_[A-Za-z0-9]{30,}\b/g, '[REDACTED HUGGING FACE TOKEN]'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, '[REDACTED GOOGLE KEY]'],
  [/\bya29\.[0-9A-Za-z_-]{20,}/g, '[REDACTED GOOGLE TOKEN]'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g, '[REDACTED JWT]'],
  // scheme://user:password@host
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, '$1[REDACTED]@'],
  // HTTP headers: `Authorization: Bearer …`, `Proxy-Authorization: Basic …`, `Cookie: …`.
  [/\b((?:Proxy-)?Authorization:\s*(?:(?:Bearer|Basic|Token|Digest|Negotiate|AWS4-HMAC-SHA256)\s+)?)(?!\$|(?:Bearer|Basic|Token|Digest|Negotiate)\s)[^\s"'\\]+/gi, '$1[REDACTED]'],
  [/\b((?:Set-)?Cookie:\s*)[^"'\n\\]+/gi, '$1[REDACTED]'],
  // NAME=value, NAME: value, "name": "value" (GITHUB_TOKEN=…, apiKey: …, X-Api-Key: …, password=… in a heredoc).
  [new RegExp(String.raw`\b(${SECRET_NAME}["']?\s*[=:]\s*)${VALUE}`, 'gi'), '$1[REDACTED]'],
  // --password=…, --password …, --client-secret …, --auth-token=… (not --password-stdin, --token-file…).
  [new RegExp(String.raw`(\s--(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token|secret|api-?key|access-key|secret-key|auth)(?:=|\s+))${VALUE}`, 'gi'), '$1[REDACTED]'],
  // openssl -pass pass:… / -passin pass:…
  [/(\bpass:)[^\s"']+/g, '$1[REDACTED]'],
  // curl -u user:password, --user user:password, --proxy-user …; smbclient -U user%password.
  [new RegExp(String.raw`(\s(?:--user|--proxy-user|-U)(?:=|\s+)["']?[^\s:%"']+[:%])[^\s"']+`, 'g'), '$1[REDACTED]'],
  [new RegExp(String.raw`(\bcurl${SAME_COMMAND}-u\s*["']?[^\s:"']+:)[^\s"']+`, 'g'), '$1[REDACTED]'],
  // aws configure set aws_secret_access_key VALUE
  [/(\baws\s+configure\s+set\s+\S*(?:secret|token|key)\S*\s+)\S+/gi, '$1[REDACTED]'],
  ...PASSWORD_SHORT_OPTIONS.map(({ programs, option, attachedOnly }): [RegExp, string] => [
    new RegExp(String.raw`(\b(?:${programs})${SAME_COMMAND}-${option}${attachedOnly ? '' : String.raw`\s*`})(?!\s)${VALUE}`, 'g'),
    '$1[REDACTED]',
  ]),
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

/** Keep the most recent `limit` characters, marking what was cut. */
export function boundContext(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.length - limit;
  return `[… ${cut} earlier characters truncated …]\n` + text.slice(cut);
}

/** Keys whose value is a secret whatever it looks like (`{"apiKey": "…"}`, `{"env": {"GITHUB_TOKEN": "…"}}`). */
const SECRET_KEY = new RegExp(String.raw`^(?:${SECRET_NAME}|(?:Proxy-)?Authorization|(?:Set-)?Cookie)$`, 'i');

/** Redact every string inside a value (tool arguments). */
export function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactSecrets(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_KEY.test(k) && x !== null && typeof x !== 'object' ? '[REDACTED]' : redactValue(x)]));
  return v;
}
