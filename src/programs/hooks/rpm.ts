/** rpm: `-i` is --info in query and verify modes, not --install. */
import { effectiveClass, hasOption, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** rpm's install, upgrade and erase modes; with -q/-V (query, verify) `-i` means --info. */
const RPM_CHANGES = [
  '--install',
  '-U',
  '--upgrade',
  '-F',
  '--freshen',
  '-e',
  '--erase',
  '--reinstall',
  '--import',
  '--rebuilddb',
  '--initdb',
  '--setperms',
  '--setugids',
  '--restore',
  '--delete',
];

function rpm(_b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || !hasOption(p, '-q', '--query', '-V', '--verify') || p.options.some((o) => RPM_CHANGES.includes(o.name))) return;
  const query = { ...p, options: p.options.filter((o) => o.name !== '-i') };
  return { class: effectiveClass(query), parsed: query };
}

export const rpmHooks: ProgramHooks = { module: 'rpm.ts', operations: rpm };
