export type PrecisionLabel =
  'dangerous' | 'privilege' | 'system' | 'process' | 'network' | 'sensitive' | 'writes' | 'runs-code' | 'outside' | 'unclear' | 'read-only';
export type PrecisionShell = 'bash' | 'zsh' | 'sh' | 'auto';
export interface PrecisionCase {
  file: string;
  line: number;
  ref: string | null;
  command: string;
  /** bash's label. */
  label: PrecisionLabel;
  /** zsh's and sh's labels where they differ from bash's. */
  shells: { zsh?: PrecisionLabel; sh?: PrecisionLabel };
  note: string;
}
export const LABELS: PrecisionLabel[];
export const SHELLS: PrecisionShell[];
export const PRECISION_CONTEXT: { cwd: string; workspaceRoots: string[]; home: string; env: Record<string, string> };
export function commandHash(command: string): string;
export function labelFor(c: PrecisionCase, shell: string): PrecisionLabel;
export function sharedPresent(): boolean;
export function precisionCases(options?: { withoutShared?: boolean }): PrecisionCase[];
