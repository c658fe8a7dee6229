/** pip: the cache directory it checks at every run. */
import { hasOption, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * Every pip command (`pip show`, `pip list`, `pip help`…; not `pip --version`) checks who owns its
 * cache directory, ~/.cache/pip, before it runs: it opens that directory, or the nearest one above
 * it that exists (the home itself on a fresh machine). Traced with pip 23 (`pip show pip` under
 * strace). `--no-cache-dir` turns the cache and the check off; the variable PIP_NO_CACHE_DIR does too,
 * but a hook does not see the command's environment, so that spelling asks.
 */
function pip(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || hasOption(p, '--no-cache-dir')) return;
  b.path('Read', { value: `${b.env.home.replace(/\/+$/, '')}/.cache/pip`, dynamic: false, glob: false, span: b.cmd.span }, 'program');
}

export const pipHooks: ProgramHooks = { module: 'pip.ts', operations: pip };
