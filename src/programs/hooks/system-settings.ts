/** Programs that read a setting or, given a value, change it: date, sysctl, ifconfig. */
import { hasOption, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * date [+FORMAT] prints; any other operand is a date to set the clock to (GNU
 * `MMDDhhmm[[CC]YY][.ss]`, BSD `[[[mm]dd]HH]MM[[cc]yy][.ss]`) unless BSD's -j says not to.
 */
function date(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || hasOption(p, '-j')) return;
  const setting = p.operands.find((a) => a.dynamic || !a.value.startsWith('+'));
  if (setting) {
    b.add('System', 'operand', setting.span, { program: 'date', target: setting.value, dynamic: setting.dynamic });
    return { class: 'mutating' };
  }
}

/** sysctl NAME=VALUE writes a kernel parameter, with or without -w. */
function sysctl(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const write = p.operands.find((a) => a.dynamic || a.value.includes('='));
  if (write && !hasOption(p, '-p', '-f', '--load')) {
    b.add('System', 'operand', write.span, { program: 'sysctl', target: write.value, dynamic: write.dynamic });
    return { class: 'mutating' };
  }
}

/** ifconfig [IFACE] shows; IFACE followed by anything (`up`, an address, `mtu 9000`) configures it. */
function ifconfig(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  if (p.operands.length >= 2 || p.operands.some((a) => a.dynamic)) {
    b.add('System', 'operand', p.operands[1]?.span ?? b.cmd.span, { program: 'ifconfig', target: p.operands.map((a) => a.value).join(' ') });
    return { class: 'mutating' };
  }
}

export const dateHooks: ProgramHooks = { module: 'system-settings.ts', operations: date };
export const sysctlHooks: ProgramHooks = { module: 'system-settings.ts', operations: sysctl };
export const ifconfigHooks: ProgramHooks = { module: 'system-settings.ts', operations: ifconfig };
