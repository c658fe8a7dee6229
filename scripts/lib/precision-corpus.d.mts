export type PrecisionLabel =
  'dangerous' | 'privilege' | 'system' | 'process' | 'network' | 'sensitive' | 'writes' | 'runs-code' | 'outside' | 'unclear' | 'read-only';
export interface PrecisionCase {
  file: string;
  line: number;
  ref: string | null;
  command: string;
  label: PrecisionLabel;
  note: string;
}
export const LABELS: PrecisionLabel[];
export const PRECISION_CONTEXT: { cwd: string; workspaceRoots: string[]; home: string; env: Record<string, string> };
export function commandHash(command: string): string;
export function precisionCases(): PrecisionCase[];
