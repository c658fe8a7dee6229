/**
 * GitHub Actions workflow commands: one `::error` (deny) or `::warning` (ask) annotation per
 * finding, which the runner shows on the pull request's diff.
 */
import type { LintFinding } from '../types.js';

/** A command's message: `%`, CR and LF escaped (docs: "workflow commands", escaping data). */
const data = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A command's property value: also `:` and `,`. */
const property = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function formatGithub(findings: readonly LintFinding[]): string {
  return findings
    .map((f) => {
      const props = [
        `file=${property(f.file)}`,
        `line=${f.line}`,
        `col=${f.column}`,
        `endLine=${f.endLine}`,
        `endColumn=${f.endColumn}`,
        `title=${property(`shellgate ${f.rule}`)}`,
      ].join(',');
      return `::${f.level === 'deny' ? 'error' : 'warning'} ${props}::${data(f.message)}`;
    })
    .join('\n');
}
