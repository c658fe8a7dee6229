/** Word parts for the sites word-sites.ts finds: what runs inside `${…}`, arithmetic, `$'…'`. */
import type { Script, Span, WordPart } from './ast.js';
import { unescapeBackquoteBody } from './backquotes.js';
import type { Site } from './word-sites.js';

export type ParseText = (text: string, offset: number | ((i: number) => number)) => Script;

/** The identity map: the text read is the source itself. */
export const SAME = (i: number): number => i;

/**
 * Our word parts for what word-sites.ts found in `text` (the original source, or the decoded text
 * of a `$'…'`); `map` takes offsets in `text` to offsets in the source (SAME: `text` is the source).
 * `parse` reads a command text as a script, its spans shifted by an offset or mapped.
 */
export function siteParts(sites: Site[], text: string, map: (i: number) => number, parse: ParseText): WordPart[] {
  const out: WordPart[] = [];
  const inSource = map === SAME;
  const at = (span: Span): Span => ({ start: map(span.start), end: Math.max(map(span.start), map(span.end)) });
  const bodyOf = (site: Site, body: string): Script =>
    parse(body, inSource ? site.body.start : (i: number) => map(Math.min(site.body.start + i, site.body.end)));
  for (const site of sites) {
    const span = at(site.span);
    const body = text.slice(site.body.start, site.body.end);
    switch (site.kind) {
      case 'command':
      case 'funsub':
        out.push({ type: 'CmdSubst', backtick: false, body: bodyOf(site, body), span });
        break;
      case 'backquote':
        out.push({ type: 'CmdSubst', backtick: true, body: bodyOf(site, unescapeBackquoteBody(body)), span });
        break;
      case 'process-in':
      case 'process-out':
        out.push({ type: 'ProcSubst', direction: site.kind === 'process-in' ? '<' : '>', body: bodyOf(site, body), span });
        break;
      case 'arithmetic':
        out.push({ type: 'ArithExp', raw: text.slice(site.span.start, site.span.end), inner: siteParts(site.inner, text, map, parse), span });
        break;
      case 'parameter': {
        const raw = text.slice(site.span.start, site.span.end);
        const name = site.name ?? '';
        out.push({ type: 'ParamExp', name, plain: raw === `\${${name}}`, inner: siteParts(site.inner, text, map, parse), raw, span });
        break;
      }
      case 'decoded': {
        // Substitutions in the decoded text have no place of their own in the source: the `$'…'` is theirs.
        const whole = at(site.span);
        for (const p of siteParts(site.inner, site.text!, () => whole.start, parse)) out.push({ ...p, span: whole });
        break;
      }
    }
  }
  return out;
}
