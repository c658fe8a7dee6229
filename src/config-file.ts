/** Reading a file of configuration (settings, guard rules, command specs): a failure names the file and the reason, never a stack trace. */
import { readFileSync } from 'node:fs';
import { ShellgateError } from './errors.js';

export function readConfigText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ShellgateError('config', `${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
