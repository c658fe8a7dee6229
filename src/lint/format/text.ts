/** The terminal view: findings grouped by file, each with its source line and a caret under it. */
import type { FileResult, LintSummary } from '../types.js';

const CODES = { deny: '31', ask: '33', allow: '32', dim: '2', bold: '1', underline: '4' } as const;

export function formatText(results: readonly FileResult[], summary: LintSummary, color: boolean): string {
  const c = (k: keyof typeof CODES, s: string) => (color ? `\x1b[${CODES[k]}m${s}\x1b[0m` : s);
  const out: string[] = [];
  for (const r of results) {
    if (r.findings.length === 0) continue;
    out.push(c('underline', r.file));
    for (const f of r.findings) {
      const where = `${f.line}:${f.column}`.padEnd(8);
      out.push(`  ${c('dim', where)}${c(f.level, f.level.padEnd(5))}  ${f.message}  ${c('dim', f.rule)}`);
      const src = r.lines[f.line];
      if (src !== undefined) {
        const width = f.endLine === f.line ? Math.max(1, f.endColumn - f.column) : Math.max(1, src.length - f.column + 1);
        // Keep tabs in the padding so the caret sits under the column in any tab width.
        const pad = [...src.slice(0, f.column - 1)].map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
        out.push(`          ${visible(src)}`, `          ${pad}${c(f.level, '^'.repeat(Math.min(width, 200)))}`);
      }
      if (f.origin !== 'script') out.push(c('dim', `          in ${f.origin}`));
    }
    out.push('');
  }
  out.push(summaryLine(summary, c));
  return out.join('\n');
}

const visible = (s: string): string => s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ' ');

function summaryLine(s: LintSummary, c: (k: keyof typeof CODES, s: string) => string): string {
  const extra = [s.suppressed > 0 ? `${s.suppressed} suppressed` : '', s.baselined > 0 ? `${s.baselined} in the baseline` : ''].filter(Boolean).join(', ');
  const files = `${s.linted} file${s.linted === 1 ? '' : 's'} linted`;
  if (s.findings === 0) return `${c('allow', 'no findings')} (${files}${extra ? `; ${extra}` : ''})`;
  const parts = [s.deny > 0 ? c('deny', `${s.deny} deny`) : '', s.ask > 0 ? c('ask', `${s.ask} ask`) : ''].filter(Boolean).join(', ');
  return `${c('bold', `${s.findings} finding${s.findings === 1 ? '' : 's'}`)} (${parts}) in ${files}${extra ? `; ${extra}` : ''}`;
}
