/** shellgate: decide allow / ask / deny for a shell command, and say why. */
export { createAnalyzer } from './analyzer.js';
export type { Analyzer, AnalyzerOptions, AnalysisContext } from './analyzer.js';
export type { Verdict, Finding, Level, TraceStep } from './verdict/types.js';
export { stricter, LEVEL_ORDER } from './verdict/types.js';
export { CORE_FINDINGS } from './verdict/catalog.js';
export type { FindingMeta, CoreFindingId } from './verdict/catalog.js';
export type { Operation, OpKind } from './ops/types.js';
export type { WalkedCommand, CommandContext, Arg, RedirectTarget } from './walk/types.js';
export type { PathClass } from './paths/classify.js';
export type { CommandSpec, OptionSpec, ArgRole, CommandClass, ExtraOp, CommandSpecFile } from './ops/spec-types.js';
export type * as AST from './syntax/ast.js';
export { ShellgateError } from './errors.js';
export type { ErrorKind } from './errors.js';
