/**
 * Named predicates about find's expression (src/programs/hooks/find.ts reads it as a tree): the
 * delete rules spare a find whose deleting actions are filtered, and only then.
 */
import type { Subject } from '../subject.js';
import { filtersEveryAction } from '../../programs/hooks/find.js';
import { forPrograms, type Predicate } from './programs.js';

export const findPredicates: Record<string, Predicate> = {
  // A filter on each action's own path that does not match everything (not one in another -o branch).
  'find/filters-every-action': forPrograms(['find'], (s: Subject) => s.cmd.program === 'find' && filtersEveryAction(s.cmd.args)),
};
