/** Readable verdicts for a terminal: the level, each sub-command with its operations, each finding with a caret line. */
import type { Verdict, Level } from '../verdict/types.js';

const COLORS: Record<Level | 'dim' | 'bold', string> = { allow: '32', ask: '33', deny: '31', dim: '2', bold: '1' };

export function formatVerdict(v: Verdict, color: boolean): string {
  const c = (k: keyof typeof COLORS, s: string) => (color ? `\x1b[${COLORS[k]}m${s}\x1b[0m` : s);
  const lines: string[] = [];
  lines.push(`${c(v.level, c('bold', v.level.toUpperCase()))}  ${oneLine(v.command)}`);
  for (const cmd of v.commands) {
    const name = cmd.program ?? (cmd.programRaw || (cmd.args.length > 0 ? '(globs the shell expands)' : '(redirects/assignments)'));
    const args = cmd.args.map((a) => a.value).join(' ');
    const via = cmd.context.via.length > 0 ? c('dim', `  via ${cmd.context.via.join(' › ')}`) : '';
    lines.push(`  ${c('bold', name)} ${oneLine(args)}${via}`);
    for (const op of v.operations.filter((o) => o.command === cmd.id)) {
      const what = op.path ?? op.url ?? op.host ?? op.program ?? op.target ?? '';
      const cls = op.classes && op.classes.length > 0 ? c('dim', ` [${op.classes.join(', ')}]`) : '';
      lines.push(`    ${op.kind} ${what}${op.dynamic ? c('dim', ' (dynamic)') : ''}${cls}`);
    }
  }
  for (const f of v.findings) {
    lines.push(`  ${c(f.level, f.level)} ${c('dim', f.rule)}: ${f.message}`);
    lines.push(...caret(v.command, f.span.start, f.span.end).map((l) => '      ' + l));
  }
  return lines.join('\n');
}

export function oneLine(s: string): string {
  const flat = s.replace(/[\r\n\t\v\f\x00-\x1f\x7f]/g, (ch) => (ch === '\n' ? '⏎' : ' '));
  return flat.length > 200 ? flat.slice(0, 200) + '…' : flat;
}

/** The line of `text` holding `start`, with `^^^` under start..end (cut to that line). */
export function caret(text: string, start: number, end: number): string[] {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', start);
  if (lineEnd < 0) lineEnd = text.length;
  let from = lineStart;
  // Long lines: show a window around the span.
  if (start - from > 60) from = start - 40;
  const to = Math.min(lineEnd, from + 160);
  const shown = oneLine(text.slice(from, to));
  const pad = ' '.repeat(Math.max(0, start - from));
  const width = Math.max(1, Math.min(end, to) - start);
  return [shown, pad + '^'.repeat(width)];
}
