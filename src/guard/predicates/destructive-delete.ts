/** Named predicates for the destructive-delete rules (rules/builtin/destructive-delete.json). */
import type { Predicate } from './programs.js';

export const destructiveDeletePredicates: Record<string, Predicate> = {};
