export interface AttackTest {
  technique: string;
  technique_name: string;
  tactics: string[];
  test: string;
  platforms: string[];
  executor: string;
  part: string;
  granularity: string;
  command: string;
}
export type Outcome = 'deny' | 'specific' | 'generic' | 'allow';
export interface CoverageRow {
  tests: number;
  deny: number;
  specific: number;
  generic: number;
  allow: number;
}
export interface GateLike {
  evaluate(
    call: { tool: string; args: { command: string } },
    ctx: object,
  ): { level: 'allow' | 'ask' | 'deny'; findings?: { level: string; category: string; rule: string }[] };
}
export const ATTACK_CONTEXT: { cwd: string; workspaceRoots: string[]; home: string; env: Record<string, string> };
export function attackScripts(): AttackTest[];
export function discoveryOnly(r: AttackTest): boolean;
export function outcome(decision: { level: string; findings?: { level: string; category: string }[] }, guardCategories: readonly string[]): Outcome;
export function coverage(
  gate: GateLike,
  guardCategories: readonly string[],
  scripts?: AttackTest[],
): {
  byTactic: Map<string, CoverageRow>;
  total: CoverageRow;
  outsideDiscovery: CoverageRow;
  cases: (AttackTest & { outcome: Outcome; decision: ReturnType<GateLike['evaluate']> })[];
};
export function genericShare(row: CoverageRow): number;
