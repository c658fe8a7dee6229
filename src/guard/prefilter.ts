/**
 * Cheap necessary conditions for a rule, derived from its matcher at load time. A subject's
 * features (which operation kinds it has, whether it runs inline code, has redirects, sits in a
 * pipeline…) are one bitmask computed once; a rule whose condition the mask cannot meet is skipped
 * without running its matcher. Most of the rules that name no program need an operation kind or a
 * context the typical command lacks, so this is where the guard layer saves most of its time.
 *
 * Soundness: a condition is only ever derived from a field that must hold for the matcher to
 * match (`not` and predicates contribute nothing), so skipping never changes a verdict.
 */
import type { OpKind } from '../ops/types.js';
import type { Matcher, SharedDefinitions } from './rule-types.js';
import type { Subject } from './subject.js';

const OP_KINDS: readonly OpKind[] = ['Read', 'Write', 'Delete', 'List', 'Exec', 'Network', 'Privilege', 'Env', 'Process', 'System', 'Unknown'];
const KIND_BIT = new Map<OpKind, number>(OP_KINDS.map((k, i) => [k, 1 << i]));
const ANY_OP = (1 << OP_KINDS.length) - 1;
const BIT = {
  code: 1 << 11,
  redirect: 1 << 12,
  pipeline: 1 << 13,
  privileged: 1 << 14,
  remote: 1 << 15,
  substitution: 1 << 16,
  background: 1 << 17,
  loop: 1 << 18,
  inFunction: 1 << 19,
  execsStdin: 1 << 20,
  args: 1 << 21,
  feeders: 1 << 22,
  parent: 1 << 23,
} as const;

/** Every clause must share a bit with the subject's features (a conjunction of disjunctions). */
export type Need = readonly number[];

export function subjectFeatures(s: Subject): number {
  let f = 0;
  for (const o of s.ops) {
    f |= KIND_BIT.get(o.kind) ?? 0;
    if (o.kind === 'Exec' && o.source === 'stdin') f |= BIT.execsStdin;
  }
  const c = s.cmd;
  if (c.execsStdin) f |= BIT.execsStdin;
  if (s.code !== null) f |= BIT.code;
  if (c.redirects.length > 0) f |= BIT.redirect;
  if (c.args.length > 0) f |= BIT.args;
  if (c.parent !== null) f |= BIT.parent;
  if (s.feeders().length > 0) f |= BIT.feeders;
  const x = c.context;
  if (x.pipeline !== null) f |= BIT.pipeline;
  if (x.privileged) f |= BIT.privileged;
  if (x.remote !== null) f |= BIT.remote;
  if (x.substitution !== null) f |= BIT.substitution;
  if (x.background) f |= BIT.background;
  if (x.loop) f |= BIT.loop;
  if (x.functionName !== null) f |= BIT.inFunction;
  return f;
}

export function meets(features: number, need: Need): boolean {
  for (const clause of need) if ((features & clause) === 0) return false;
  return true;
}

/** The conditions a matcher implies (empty: none known). Call after the matcher compiled cleanly. */
export function needOf(m: Matcher, defs: SharedDefinitions, depth = 0): number[] {
  if (depth > 20) return [];
  const out: number[] = [];
  if (m.op !== undefined) {
    const kinds = m.op.kind === undefined ? null : Array.isArray(m.op.kind) ? m.op.kind : [m.op.kind];
    out.push(kinds === null ? ANY_OP : kinds.reduce((a, k) => a | (KIND_BIT.get(k) ?? ANY_OP), 0));
  }
  if (m.code !== undefined) out.push(BIT.code);
  if (m.redirect !== undefined) out.push(BIT.redirect);
  if (m.pipedFrom !== undefined || m.pipedTo !== undefined) out.push(BIT.pipeline);
  if (m.execsStdin === true) out.push(BIT.execsStdin);
  if (m.arg !== undefined || m.argRegex !== undefined || m.argsAll !== undefined) out.push(BIT.args);
  if (m.argCount !== undefined && (m.argCount.min ?? 0) > 0) out.push(BIT.args);
  if (m.fedBy !== undefined) out.push(BIT.feeders);
  if (m.inside !== undefined) out.push(BIT.parent);
  if (m.context !== undefined) {
    for (const k of ['privileged', 'remote', 'substitution', 'background', 'loop', 'inFunction'] as const) {
      if (m.context[k] === true) out.push(BIT[k]);
    }
  }
  if (m.macro !== undefined && defs.macros[m.macro]) out.push(...needOf(defs.macros[m.macro], defs, depth + 1));
  for (const x of m.all ?? []) out.push(...needOf(x, defs, depth + 1));
  if (m.any !== undefined && m.any.length > 0) {
    // One branch must match: each branch contributes its narrowest clause, joined; a branch with
    // no condition makes the whole `any` unconstrained.
    let joined = 0;
    for (const b of m.any) {
      const n = needOf(b, defs, depth + 1);
      if (n.length === 0) {
        joined = -1;
        break;
      }
      joined |= n.reduce((a, c) => (popcount(c) < popcount(a) ? c : a));
    }
    if (joined !== -1) out.push(joined);
  }
  return [...new Set(out)];
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}
