/**
 * `# shellgate-ignore RULE[,RULE] -- reason` comments. One on the line of a finding suppresses it;
 * one alone on its line suppresses findings on the next line, and findings in a command that
 * starts on the next line (a continued RUN, a multi-line `run:` command). A RULE is a rule id
 * (`destructive-delete/rm-recursive-root`) or a category (`destructive-delete`, `lint`), which
 * suppresses every rule in it.
 */
import type { LineIndex } from './source-text.js';

export interface Suppression {
  line: number;
  rules: string[];
  reason: string | null;
  /** The comment is the whole line (so it speaks for the line below). */
  alone: boolean;
}

const COMMENT = /#\s*shellgate-ignore[ \t]+([A-Za-z0-9_./*-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_./*-]+)*)(?:[ \t]+--[ \t]*(.*?))?[ \t]*$/;

export function findSuppressions(file: string, lines: LineIndex): Map<number, Suppression> {
  const out = new Map<number, Suppression>();
  if (!file.includes('shellgate-ignore')) return out;
  for (let n = 1; n <= lines.lineCount; n++) {
    const text = lines.lineText(n);
    if (!text.includes('shellgate-ignore')) continue;
    const m = COMMENT.exec(text);
    if (!m) continue;
    out.set(n, {
      line: n,
      rules: m[1]!.split(',').map((r) => r.trim()),
      reason: m[2] ? m[2] : null,
      alone: text.slice(0, m.index).trim() === '',
    });
  }
  return out;
}

const covers = (s: Suppression, rule: string): boolean => s.rules.some((r) => r === rule || rule.startsWith(r + '/'));

/** Whether a finding of `rule` starting on `line`, in a command starting on `commandLine`, is suppressed. */
export function isSuppressed(map: Map<number, Suppression>, rule: string, line: number, commandLine: number): boolean {
  if (map.size === 0) return false;
  const here = map.get(line);
  if (here && covers(here, rule)) return true;
  for (const l of new Set([line - 1, commandLine - 1])) {
    const above = map.get(l);
    if (above && above.alone && covers(above, rule)) return true;
  }
  return false;
}
