/** HTTP clients: curl's `@FILE` uploads and cookie files, HTTPie's file items, wget's saved files. */
import type { ParsedArgv } from '../argv.js';
import type { OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * curl options whose value names a local file with `@FILE` (or `<FILE` for a form field's
 * content): -d/--data/--data-binary/--data-urlencode/--json/-F/--form/--url-query/--variable,
 * and headers from a file (-H @FILE). `--data-raw` and `--form-string` take text literally.
 * `@-` and `<-` are stdin.
 */
const CURL_AT_FILE: Record<string, RegExp> = {
  '-d': /^@(.+)$/,
  '--data': /^@(.+)$/,
  '--data-ascii': /^@(.+)$/,
  '--data-binary': /^@(.+)$/,
  '--json': /^@(.+)$/,
  '-H': /^@(.+)$/,
  '--header': /^@(.+)$/,
  '--proxy-header': /^@(.+)$/,
  // [name]@file reads file (content URL-encoded); name=content and =content are text.
  '--data-urlencode': /^[^=]*?@(.+)$/,
  '--url-query': /^[^=+]*?@(.+)$/,
  '--variable': /^%?[^=@]*@(.+)$/,
  // name=@file uploads the file; name=<file sends its content; `;type=…` may follow.
  '-F': /^[^=]*=[@<]("[^"]*"|[^;]*)/,
  '--form': /^[^=]*=[@<]("[^"]*"|[^;]*)/,
};

function curl(b: OperationSink, p: ParsedArgv | null): void {
  if (!p) return;
  for (const o of p.options) {
    // -b NAME=VALUE sends a cookie; -b FILE (no `=`) reads cookies from FILE.
    if ((o.name === '-b' || o.name === '--cookie') && o.value && !o.value.value.includes('=')) b.path('Read', o.value, 'option');
    const re = o.value ? CURL_AT_FILE[o.name] : undefined;
    if (!re || !o.value) continue;
    const m = re.exec(o.value.value);
    if (!m) continue;
    const file = m[1].replace(/^"(.*)"$/, '$1');
    if (file === '-' || file === '') continue; // stdin
    b.path('Read', { ...o.value, value: file }, 'option');
  }
}

/**
 * HTTPie request items (`http`, `https`, `xh`: `[METHOD] URL ITEM…`) that read a local file:
 * `field=@FILE` (its text), `field:=@FILE` (its JSON), `field@FILE` (a multipart upload),
 * `Header:@FILE`, and `@FILE` as the body. A backslash escapes a separator (`a\@b`).
 */
const HTTPIE_SEPARATORS = [':=@', '=@', ':@', '==', ':=', '=', ':', '@'];

export function httpieItemFile(item: string): string | null {
  for (let i = 0; i < item.length; i++) {
    const c = item[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== ':' && c !== '=' && c !== '@') continue;
    const sep = HTTPIE_SEPARATORS.find((x) => item.startsWith(x, i))!;
    return sep.includes('@') ? item.slice(i + sep.length) : null;
  }
  return null;
}

function httpie(b: OperationSink, p: ParsedArgv | null): void {
  if (!p) return;
  const first = p.operands[0];
  const items = p.operands.slice(first && !first.dynamic && /^[A-Za-z]+$/.test(first.value) ? 2 : 1);
  for (const a of items) {
    const file = a.dynamic ? null : httpieItemFile(a.value);
    // HTTPie expands `~` in these paths itself (the shell does not, inside `key@~/…`).
    if (file) b.path('Read', { ...a, value: file.startsWith('~/') ? `${b.env.home.replace(/\/+$/, '')}/${file.slice(2)}` : file }, 'operand');
  }
}

/** wget without -O saves each URL under its last path segment (index.html for none), in -P DIR or the cwd. */
function wget(b: OperationSink, p: ParsedArgv | null): void {
  if (!p || p.options.some((o) => ['-O', '--output-document', '--spider', '-i', '--input-file'].includes(o.name))) return;
  const dir = p.options.find((o) => ['-P', '--directory-prefix'].includes(o.name))?.value?.value ?? '.';
  for (const u of p.operands) {
    if (u.dynamic) continue;
    const path = /^[a-z]+:\/\/[^/]+(\/[^?#]*)?/i.exec(u.value)?.[1] ?? '';
    const name = path.split('/').pop() || 'index.html';
    b.path('Write', { ...u, value: `${dir.replace(/\/+$/, '')}/${name}` }, 'operand');
  }
}

export const curlHooks: ProgramHooks = { module: 'curl.ts', operations: curl };
export const httpieHooks: ProgramHooks = { module: 'curl.ts', operations: httpie };
export const wgetHooks: ProgramHooks = { module: 'curl.ts', operations: wget };
