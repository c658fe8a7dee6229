/**
 * The scopes of a JavaScript program (javascript.ts): which declaration each name refers to, read
 * from acorn's AST as the language scopes it. `var` and parameters belong to the function (or the
 * script), `let`/`const`, a function declared in a block and a `catch` parameter to their block.
 * A function declared in a block is kept to its block: sloppy mode may also hoist it (Annex B),
 * which can only make a name the prover takes for a global a local; never the reverse.
 */
import type { AnyNode, Pattern, VariableDeclaration } from 'acorn';

/** What a name declared by the code holds. */
export type Binding =
  /** `const fs = require('fs')` and nothing else under that name in that scope: the module. */
  | { kind: 'module'; module: string }
  /** A value the code computed. */
  | { kind: 'local' }
  /** Declared twice in one scope, once as a module: not known which the name holds. */
  | { kind: 'conflict' };

export class Scope {
  readonly names = new Map<string, Binding>();
  constructor(readonly parent: Scope | null) {}

  declare(name: string, binding: Binding): void {
    const had = this.names.get(name);
    if (had === undefined) this.names.set(name, binding);
    else if (had.kind !== 'local' || binding.kind !== 'local') this.names.set(name, { kind: 'conflict' });
  }

  /** The binding a name refers to here, or null for a global. */
  lookup(name: string): Binding | null {
    return this.names.get(name) ?? this.parent?.lookup(name) ?? null;
  }
}

/** The names a pattern declares (`a`, `{a, b: [c]}`, `...rest`, `x = 1`). */
export function patternNames(p: Pattern, out: string[] = []): string[] {
  switch (p.type) {
    case 'Identifier':
      out.push(p.name);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties) patternNames(prop.type === 'RestElement' ? prop : prop.value, out);
      break;
    case 'ArrayPattern':
      for (const e of p.elements) if (e) patternNames(e, out);
      break;
    case 'RestElement':
      patternNames(p.argument, out);
      break;
    case 'AssignmentPattern':
      patternNames(p.left, out);
      break;
    default:
      break; // a member expression is a target, not a declaration
  }
  return out;
}

/** The module a declarator binds when it is `NAME = require('<listed module>')`, else null. */
export type ModuleOf = (init: AnyNode | null | undefined) => string | null;

/** Declares a declaration's names in `scope`; a single `x = require('fs')` declares a module. */
export function declareVariables(decl: VariableDeclaration, scope: Scope, moduleOf: ModuleOf): void {
  for (const d of decl.declarations) {
    const module = d.id.type === 'Identifier' ? moduleOf(d.init) : null;
    for (const name of patternNames(d.id)) scope.declare(name, module !== null ? { kind: 'module', module } : { kind: 'local' });
  }
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Every `var` under `node`, down to but not into nested functions: they belong to its function. */
export function hoistVars(node: AnyNode, scope: Scope, moduleOf: ModuleOf): void {
  if (node.type === 'VariableDeclaration' && node.kind === 'var') declareVariables(node, scope, moduleOf);
  for (const child of children(node)) if (!FUNCTIONS.has(child.type)) hoistVars(child, scope, moduleOf);
}

/** The nodes directly under a node, in source order. */
export function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (isNode(v)) out.push(v);
    } else if (isNode(value)) out.push(value);
  }
  return out.sort((a, b) => a.start - b.start);
}

const isNode = (v: unknown): v is AnyNode => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
