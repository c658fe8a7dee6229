/** Named predicates for the persistence rules (rules/builtin/persistence.json). */
import type { Subject } from '../subject.js';
import { forPrograms, requires, type Predicate } from './programs.js';

/** The files the Python interpreter runs at every start: site's `.pth` lines and the customize modules. */
const CUSTOMIZE_MODULE = /(^|\/)(site|user)customize\.py$/;
/** A `.pth` file in a package directory, also when that directory is a variable (`$SITE_PACKAGES/x.pth`). */
const PACKAGES_PTH = /(site|dist)[-_]packages\/[^/]+\.pth$/i;

/** Programs that put a file in place by name (a redirect is the other way a hook is written). */
const HOOK_WRITERS = new Set(['cp', 'mv', 'install', 'tee']);

/**
 * A write of `sitecustomize.py`, `usercustomize.py` or a `.pth` file into site-packages: Python runs
 * them (a `.pth` line that starts with `import` included) whenever it starts. A `.pth` file elsewhere
 * is most often a PyTorch checkpoint, so only the package directories count.
 */
function pythonStartupHook(s: Subject): boolean {
  const copier = s.cmd.program !== null && HOOK_WRITERS.has(s.cmd.program);
  return s.ops.some((o) => {
    if (o.kind !== 'Write' || (o.source !== 'redirect' && !copier)) return false;
    const p = o.path ?? o.target ?? '';
    return CUSTOMIZE_MODULE.test(p) || PACKAGES_PTH.test(p);
  });
}

/** A DEBUG trap that records every command the shell runs. */
const COMMAND_LOGGER = /\$\{?BASH_COMMAND\b.*>>?|>>?.*\$\{?BASH_COMMAND\b/s;

/**
 * `trap 'echo "$BASH_COMMAND" >> f' DEBUG`: each command the shell runs afterwards is written to a
 * file before it runs. A DEBUG trap that only prints (`trap 'echo "+ $BASH_COMMAND"' DEBUG`) is
 * tracing, and is left alone. Handlers that detach or fetch are matched by the rule's data, on the
 * handler's own commands (the walker reads them as wrapped by `trap`).
 */
function trapCommandLogger(s: Subject): boolean {
  if (s.cmd.program !== 'trap') return false;
  const args = s.cmd.args.map((a) => a.value);
  const start = args[0] === '--' ? 1 : 0;
  const handler = args[start];
  const signals = args.slice(start + 1);
  if (handler === undefined || handler.startsWith('-')) return false;
  return signals.some((sig) => /^(SIG)?DEBUG$/i.test(sig)) && COMMAND_LOGGER.test(handler);
}

/**
 * The command creates an account: `useradd NAME` (not `useradd -D`, which shows or sets defaults),
 * Debian's `adduser NAME` with one name (two names add a user to a group), FreeBSD's
 * `pw useradd NAME` / `pw user add NAME`.
 */
function createsAccount(s: Subject): boolean {
  const p = s.cmd.program;
  if (p !== 'pw' && p !== 'useradd' && p !== 'adduser') return false;
  if (p === 'pw') {
    const words = s.cmd.args.map((a) => a.value);
    return words[0] === 'useradd' || (words[0] === 'user' && words[1] === 'add');
  }
  const { operands } = s.parsed;
  if (p === 'useradd') return operands.length > 0 && !s.hasFlag('-D') && !s.hasFlag('--defaults');
  return p === 'adduser' && operands.length === 1;
}

export const persistencePredicates: Record<string, Predicate> = {
  // Written through a redirect or by a program that copies files into place.
  'persistence/python-startup-hook': requires([{ features: ['redirect'], programs: HOOK_WRITERS }, { features: ['Write'] }], pythonStartupHook),
  'persistence/trap-command-logger': forPrograms(['trap'], trapCommandLogger),
  'persistence/creates-account': forPrograms(['useradd', 'adduser', 'pw'], createsAccount),
};
