/**
 * Secrets shellgate can recognise are removed before anything leaves the process: provider keys
 * and tokens, private keys, JWTs, credentials in URLs, and values of variables named like secrets.
 */
const PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[REDACTED PRIVATE KEY]'],
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, '[REDACTED AWS KEY]'],
  [/\b(ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}\b/g, '[REDACTED GITHUB TOKEN]'],
  [/\bsk-(ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g, '[REDACTED API KEY]'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, '[REDACTED SLACK TOKEN]'],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, '[REDACTED GITLAB TOKEN]'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, '[REDACTED GOOGLE KEY]'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g, '[REDACTED JWT]'],
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, '$1[REDACTED]@'],
  [/\b([A-Za-z_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)[A-Za-z_]*\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"']+)/gi, '$1[REDACTED]'],
  [/\b(Authorization:\s*(?:Bearer|Basic|token)\s+)\S+/gi, '$1[REDACTED]'],
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

/** Redact every string inside a value (tool arguments). */
export function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactSecrets(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, /key|token|secret|password/i.test(k) ? '[REDACTED]' : redactValue(x)]));
  return v;
}
