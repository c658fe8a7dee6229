/**
 * The analyser a lint run uses: the default one, or the analyser options (`ruleFiles`,
 * `commandSpecDirs`, `trustedInstallers`…) of a shellgate settings file given with `--config`.
 */
import { homedir } from 'node:os';
import { createAnalyzer, type Analyzer, type AnalyzerOptions } from '../analyzer.js';
import { loadSource } from '../policy/settings.js';

export function lintAnalyzerOptions(config: string | null): AnalyzerOptions {
  if (config === null) return {};
  return loadSource({ source: 'project', file: config, format: 'shellgate' }, process.cwd(), homedir()).analyzer;
}

export function lintAnalyzer(options: AnalyzerOptions): Promise<Analyzer> {
  // Scripts are long: no verdict cache (each snippet is analysed once), the default input limit.
  return createAnalyzer({ ...options, cacheSize: 0 });
}
