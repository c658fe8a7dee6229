/**
 * Where `cp`, `mv`, `install` and `ln` put what they make. Into a directory the new name is
 * DIR/NAME (NAME: the source's last name), so `cp evil/.envrc .` writes `./.envrc` though the
 * operand says `.`; a recursive copy also writes the names of the tree it copies. Each landing
 * place is a Write operation of its own, classified like any other path.
 */
import { posix } from 'node:path';
import { execConfigBelow } from '../paths/exec-config.js';
import type { Arg } from '../walk/types.js';
import type { OpBuilder } from './op-builder.js';
import { hasOption, type ParsedArgv } from '../programs/argv.js';

export const LANDING_PROGRAMS = new Set(['cp', 'mv', 'install', 'ln']);

export function landingOps(b: OpBuilder, program: string, p: ParsedArgv): void {
  if (program === 'install' && hasOption(p, '-d', '--directory')) return;
  const t = p.options.find((o) => (o.name === '-t' || o.name === '--target-directory') && o.value !== null)?.value ?? null;
  let dest: Arg;
  let sources: Arg[];
  if (t !== null) {
    dest = t;
    sources = p.operands;
  } else if (program === 'ln' && p.operands.length === 1) {
    // `ln -s TARGET`: a link named like the target, in the current directory.
    dest = { ...p.operands[0], value: '.', dynamic: false, glob: false };
    sources = p.operands;
  } else {
    if (p.operands.length < 2 || hasOption(p, '-T', '--no-target-directory')) return;
    dest = p.operands[p.operands.length - 1];
    sources = p.operands.slice(0, -1);
  }
  if (dest.dynamic) return;
  const into = t !== null || sources.length > 1 || dest.value.endsWith('/') || b.isDirectory(dest) !== false;
  const recursive = program === 'cp' && hasOption(p, '-r', '-R', '--recursive', '-a', '--archive');
  const base = dest.value.replace(/(.)\/+$/, '$1');
  const at = (rest: string): string => (base === '/' ? '/' + rest : `${base}/${rest}`);
  if (!into) {
    // `cp -r tpl new`: new is the copy, and tpl's tree lands below it.
    if (recursive && sources.length === 1 && !sources[0].glob) treeOps(b, sources[0], dest, base);
    return;
  }
  for (const s of sources) {
    if (s.dynamic) {
      // The new name is only known at run time.
      b.add('Write', 'operand', dest.span, { target: at('…'), dynamic: true });
      continue;
    }
    const name = posix.basename(s.value.replace(/(.)\/+$/, '$1'));
    // `cp -r tpl/. dest` copies the contents of tpl into dest itself.
    const landing = name === '.' || name === '/' ? base : at(name);
    if (landing !== base) b.path('Write', { ...dest, value: landing, glob: dest.glob || s.glob }, 'operand');
    if (recursive && !s.glob) treeOps(b, s, dest, landing);
  }
}

/** The exec-config files of the tree `source` names, as writes below `landing`. */
function treeOps(b: OpBuilder, source: Arg, dest: Arg, landing: string): void {
  const below = b.treeBelow(source, execConfigBelow);
  if (below === null) b.add('Write', 'operand', dest.span, { target: `${landing}/… (a tree too large to look at)`, dynamic: true });
  else for (const rel of below) b.path('Write', { ...dest, value: `${landing === '/' ? '' : landing}/${rel}`, glob: false }, 'operand');
}
