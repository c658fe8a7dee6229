/** The `--config FILE` JSON file: analyser options (see AnalyzerOptions). Errors name the file and the field. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ShellgateError } from './errors.js';
import type { AnalyzerOptions } from './analyzer.js';

export function loadConfigFile(path: string): AnalyzerOptions {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ShellgateError('config', `${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ShellgateError('config', `${path}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ShellgateError('config', `${path}: expected a JSON object`);
  const options = { ...(data as Record<string, unknown>) } as AnalyzerOptions & Record<string, unknown>;
  // Spec folders and rule files are relative to the config file.
  for (const key of ['commandSpecDirs', 'ruleFiles'] as const) {
    const list = options[key];
    if (Array.isArray(list)) options[key] = list.map((d) => (typeof d === 'string' ? resolve(dirname(path), d) : d));
  }
  return options;
}
