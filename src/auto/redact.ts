/**
 * Secrets shellgate can recognise are removed before anything leaves the process (the classifier
 * request, the audit log): provider keys and tokens, private keys, JWTs, credentials in URLs and
 * HTTP headers, values of variables and options named like secrets, and the password options of
 * the programs agents most often pass one to (`mysql -pSECRET`, `sshpass -p`, `curl -u u:p`).
 *
 * The redacted text keeps its shape: quotes, operators (`;`, `|`, `&`) and the words around a
 * secret stay, so the command still reads (and parses) as the same command line. When unsure
 * the text is redacted: a few harmless words lost from a log costs less than one leaked token.
 *
 * This runs on every hook call, on text an agent (or an attacker steering it) wrote, so every
 * pattern takes time linear in the text: a match starts only where a run of its characters
 * starts (a lookbehind), and a value that opens a quote runs to the closing quote or the end —
 * never a search that is retried from every position.
 */

/**
 * What a value may be: a quoted string (to its closing quote, or the end when there is none), or
 * an unquoted word up to a space, a quote or an operator. Not a `$VAR` or `$(…)`: a reference is
 * not the secret, and the command keeps its shape; not a secret an earlier pattern replaced.
 */
const VALUE = String.raw`(?!\$|\[REDACTED)(?:"[^"]*"?|'[^']*'?|[^\s"'\`;|&<>()]+)`;

const PATTERNS: [RegExp, string][] = [
  // PEM blocks (`RSA`, `EC`, `OPENSSH`, `ENCRYPTED` private keys, `PGP PRIVATE KEY BLOCK`), to their end or the end of the text.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|$)/g, '[REDACTED PRIVATE KEY]'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '[REDACTED AWS KEY]'],
  [/\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}\b/g, '[REDACTED GITHUB TOKEN]'],
  [/(?<![A-Za-z0-9_-])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g, '[REDACTED API KEY]'],
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, '[REDACTED API KEY]'],
  [/(?<![A-Za-z0-9-])xox[abposr]-[A-Za-z0-9-]{10,}/g, '[REDACTED SLACK TOKEN]'],
  [/\bhttps:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, '[REDACTED SLACK WEBHOOK]'],
  [/(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g, '[REDACTED GITLAB TOKEN]'],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, '[REDACTED NPM TOKEN]'],
  [/\bhf_[A-Za-z0-9]{30,}\b/g, '[REDACTED HUGGING FACE TOKEN]'],
  [/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, '[REDACTED GOOGLE KEY]'],
  [/(?<![A-Za-z0-9_.-])ya29\.[0-9A-Za-z_-]{20,}/g, '[REDACTED GOOGLE TOKEN]'],
  [/(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, '[REDACTED JWT]'],
  // scheme://user:password@host
  [/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, '$1[REDACTED]@'],
  // HTTP headers: `Authorization: Bearer …`, `Proxy-Authorization: Basic …`, `Cookie: …`.
  [
    /\b((?:Proxy-)?Authorization:\s*(?:(?:Bearer|Basic|Token|Digest|Negotiate|AWS4-HMAC-SHA256)\s+)?)(?!\$|(?:Bearer|Basic|Token|Digest|Negotiate)\s)[^\s"'\\]+/gi,
    '$1[REDACTED]',
  ],
  [/\b((?:Set-)?Cookie:\s*)[^"'\n\\]+/gi, '$1[REDACTED]'],
  // --password=…, --password …, --client-secret …, --auth-token=… (not --password-stdin, --token-file…).
  [
    new RegExp(String.raw`(\s--(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token|secret|api-?key|access-key|secret-key|auth)(?:=|\s+))${VALUE}`, 'gi'),
    '$1[REDACTED]',
  ],
  // openssl -pass pass:… / -passin pass:…
  [/(\bpass:)[^\s"']+/g, '$1[REDACTED]'],
  // --user user:password, --proxy-user …; smbclient -U user%password.
  [/(\s(?:--user|--proxy-user|-U)(?:=|\s+)["']?[^\s:%"']+[:%])[^\s"']+/g, '$1[REDACTED]'],
];

/** Words that make a variable, key or header name a secret's (`GITHUB_TOKEN`, `apiKey`, `X-Api-Key`, `DB_PASSWORD`, `MYSQL_PWD`). */
export function isSecretName(name: string): boolean {
  return (
    /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i.test(name) || /(?<![A-Za-z])(?:PASS|AUTH|CREDS|COOKIE)(?![A-Za-z])|_PWD(?![A-Za-z])/i.test(name)
  );
}

/** `NAME=value`, `NAME: value`, `"name": "value"`: a name starts where a run of name characters starts. */
const NAME_AND_SEPARATOR = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)(["']?\s*[=:]\s*)/g;
const VALUE_HERE = new RegExp(VALUE, 'y');

function redactNamedValues(text: string): string {
  let out = '';
  let done = 0;
  NAME_AND_SEPARATOR.lastIndex = 0;
  for (let m = NAME_AND_SEPARATOR.exec(text); m !== null; m = NAME_AND_SEPARATOR.exec(text)) {
    // Not a secret's name: scanning goes on inside the value (`--set=API_KEY=x`).
    if (!isSecretName(m[1])) continue;
    const at = m.index + m[0].length;
    VALUE_HERE.lastIndex = at;
    const v = VALUE_HERE.exec(text);
    if (v === null) continue;
    out += text.slice(done, at) + '[REDACTED]';
    done = at + v[0].length;
    NAME_AND_SEPARATOR.lastIndex = done;
  }
  return out + text.slice(done);
}

/**
 * Programs whose option carries a password, and the option as it follows the program: the first
 * such option after the program is its own (`sshpass -p pw ssh -p 22` redacts `pw`). `-p` alone
 * makes mysql prompt, so only an attached `-pSECRET` is one.
 */
const PROGRAM_PASSWORDS: { program: RegExp; option: RegExp }[] = [
  {
    program: /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mysqlslap|mariadb(?:-[a-z]+)?)\b/g,
    option: new RegExp(String.raw`\s-p(?!\s)(${VALUE})`, 'g'),
  },
  { program: /\bsshpass\b/g, option: new RegExp(String.raw`\s-p\s*(${VALUE})`, 'g') },
  { program: /\b(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b/g, option: new RegExp(String.raw`\s-p\s*(${VALUE})`, 'g') },
  { program: /\bredis-cli\b/g, option: new RegExp(String.raw`\s-a\s*(${VALUE})`, 'g') },
  // `docker login -p X`: -p is a password only after `login`.
  { program: /\b(?:docker|podman|buildah|skopeo|nerdctl|helm\s+registry)\s+login\b/g, option: new RegExp(String.raw`\s-p\s*(${VALUE})`, 'g') },
  { program: /\bcurl\b/g, option: /\s-u\s*["']?[^\s:"']+:([^\s"']+)/g },
  { program: /\baws\s+configure\s+set\s+(?=\S*(?:secret|token|key))/gi, option: /\s(\S+)/g },
];

function redactProgramPasswords(text: string): string {
  let out = text;
  for (const { program, option } of PROGRAM_PASSWORDS) {
    // Found first, replaced in one pass: rebuilding the text for each one would be quadratic.
    const values: [number, number][] = [];
    program.lastIndex = 0;
    for (let p = program.exec(out); p !== null; p = program.exec(out)) {
      option.lastIndex = p.index + p[0].length;
      const o = option.exec(out);
      // No option after this occurrence means none after any later one either.
      if (o === null) break;
      const at = o.index + o[0].length - o[1].length;
      if (!o[1].startsWith('[REDACTED')) values.push([at, at + o[1].length]);
      program.lastIndex = at + o[1].length;
    }
    if (values.length === 0) continue;
    let next = '';
    let done = 0;
    for (const [from, to] of values) {
      next += out.slice(done, from) + '[REDACTED]';
      done = to;
    }
    out = next + out.slice(done);
  }
  return out;
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  out = redactNamedValues(out);
  return redactProgramPasswords(out);
}

/** Keep the most recent `limit` characters, marking what was cut. */
export function boundContext(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.length - limit;
  return `[… ${cut} earlier characters truncated …]\n` + text.slice(cut);
}

/** Keys whose value is a secret whatever it looks like (`{"apiKey": "…"}`, `{"env": {"GITHUB_TOKEN": "…"}}`, `{"Authorization": "…"}`). */
function isSecretKey(key: string): boolean {
  return isSecretName(key) || /^(?:(?:Proxy-)?Authorization|(?:Set-)?Cookie)$/i.test(key);
}

/** Redact every string inside a value (tool arguments). */
export function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactSecrets(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isSecretKey(k) && x !== null && typeof x !== 'object' ? '[REDACTED]' : redactValue(x)]));
  return v;
}
