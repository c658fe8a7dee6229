/** Decoding of bash's ANSI-C quoting `$'…'`, as bash does it (bash manual, "ANSI-C Quoting"). */

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `raw` is the whole token, `$'…'` included. */
export function decodeAnsiC(raw: string): string {
  const body = raw.startsWith("$'") ? raw.slice(2, raw.endsWith("'") ? -1 : undefined) : raw;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[++i];
    if (next in SIMPLE) {
      out += SIMPLE[next];
    } else if (next >= '0' && next <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(m, 8) & 0xff);
      i += m.length - 1;
    } else if (next === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (next === 'u' || next === 'U') {
      const m = (next === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(body.slice(i + 1));
      const cp = m ? parseInt(m[0], 16) : NaN;
      if (m && cp <= 0x10ffff) {
        out += String.fromCodePoint(cp);
        i += m[0].length;
      } else out += '\\' + next;
    } else if (next === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += '\\' + next;
    }
  }
  // bash stops the string at a NUL byte.
  const nul = out.indexOf('\0');
  return nul >= 0 ? out.slice(0, nul) : out;
}
