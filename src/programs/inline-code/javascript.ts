/**
 * Proves a JavaScript one-liner (`node -e`/`-p`) only reads and prints, over acorn's AST (a real
 * parser: javascript-parse.ts) and with the language's own scopes (javascript-scope.ts). Every
 * node type is on a closed list; every name is resolved: a variable of the code holds a value it
 * computed, a free name must be a listed global (`console.log`, `JSON.parse`, `process.argv`…) or a
 * listed module (`fs`, `path`, `os`: globals in node's eval mode, or `require`d by a literal), used
 * only through its listed members. No variable may take the name of a builtin module or a global
 * (javascript-names.ts). Properties of values may be any name but those that reach code
 * (`constructor`, `__proto__`, `call`…); a computed property must be a literal. `this`, classes,
 * tagged templates, `import()`, `with`, generators: not proven.
 */
import type {
  AnyNode,
  ArrowFunctionExpression,
  CallExpression,
  Expression,
  FunctionDeclaration,
  FunctionExpression,
  MemberExpression,
  Pattern,
  Program,
  Property,
  AssignmentProperty,
  SpreadElement,
  Statement,
  SwitchStatement,
  TryStatement,
  VariableDeclaration,
} from 'acorn';
import { notProven, ProofBuilder, READABLE_VARIABLES, type Proof } from './proof.js';
import { parseNodeScript } from './javascript-parse.js';
import { GLOBALS, harmlessMember, MODULES, RESERVED_BINDINGS } from './javascript-names.js';
import { declareVariables, hoistVars, patternNames, Scope } from './javascript-scope.js';

export function proveJavaScript(code: string): Proof {
  const ast = parseNodeScript(code);
  if (typeof ast === 'string') return notProven(ast);
  const prover = new Prover();
  try {
    prover.program(ast);
  } catch (e) {
    if (e instanceof Unproven) return notProven(e.why);
    throw e;
  }
  return prover.proof.done();
}

class Unproven {
  constructor(readonly why: string) {}
}
const fail = (why: string): never => {
  throw new Unproven(why);
};

const own = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

type Func = FunctionDeclaration | FunctionExpression | ArrowFunctionExpression;

class Prover {
  readonly proof = new ProofBuilder();

  program(p: Program): void {
    const scope = new Scope(null);
    this.declareBlock(p.body as Statement[], scope, p);
    for (const s of p.body) this.statement(s as Statement, scope);
  }

  /** `require('<listed module>')`: the module's name; a declarator with that value binds the module. */
  private moduleOf = (init: AnyNode | null | undefined): string | null => {
    const r = isRequire(init) ? readRequire(init as CallExpression) : null;
    return r !== null && typeof r !== 'string' && r.kind === 'module' ? r.module : null;
  };

  /** A block's own declarations (and, given `hoist`, its function's `var`s), then their names checked. */
  private declareBlock(body: readonly Statement[], scope: Scope, hoist?: AnyNode): void {
    if (hoist) hoistVars(hoist, scope, this.moduleOf);
    for (const s of body) {
      if (s.type === 'VariableDeclaration' && s.kind !== 'var') declareVariables(s, scope, this.moduleOf);
      else if (s.type === 'FunctionDeclaration') scope.declare(s.id.name, { kind: 'local' });
    }
    checkNames(scope);
  }

  private statement(s: Statement, scope: Scope): void {
    switch (s.type) {
      case 'ExpressionStatement':
        return this.expression(s.expression, scope);
      case 'BlockStatement': {
        const inner = new Scope(scope);
        this.declareBlock(s.body, inner);
        for (const x of s.body) this.statement(x, inner);
        return;
      }
      case 'EmptyStatement':
      case 'BreakStatement':
      case 'ContinueStatement':
        return;
      case 'IfStatement':
        this.expression(s.test, scope);
        this.statement(s.consequent, scope);
        if (s.alternate) this.statement(s.alternate, scope);
        return;
      case 'ForStatement': {
        const inner = new Scope(scope);
        if (s.init?.type === 'VariableDeclaration' && s.init.kind !== 'var') declareVariables(s.init, inner, this.moduleOf);
        checkNames(inner);
        if (s.init?.type === 'VariableDeclaration') this.declaration(s.init, inner);
        else if (s.init) this.expression(s.init, inner);
        if (s.test) this.expression(s.test, inner);
        if (s.update) this.expression(s.update, inner);
        return this.statement(s.body, inner);
      }
      case 'ForInStatement':
      case 'ForOfStatement': {
        const inner = new Scope(scope);
        if (s.left.type === 'VariableDeclaration' && s.left.kind !== 'var') declareVariables(s.left, inner, () => null);
        checkNames(inner);
        this.expression(s.right, inner);
        if (s.left.type === 'VariableDeclaration') this.declaration(s.left, inner);
        else this.target(s.left, inner);
        return this.statement(s.body, inner);
      }
      case 'WhileStatement':
      case 'DoWhileStatement':
        this.expression(s.test, scope);
        return this.statement(s.body, scope);
      case 'ReturnStatement':
      case 'ThrowStatement':
        if (s.argument) this.expression(s.argument, scope);
        return;
      case 'LabeledStatement':
        return this.statement(s.body, scope);
      case 'TryStatement':
        return this.tryStatement(s, scope);
      case 'SwitchStatement':
        return this.switchStatement(s, scope);
      case 'VariableDeclaration':
        return this.declaration(s, scope);
      case 'FunctionDeclaration':
        return this.func(s, scope);
      default:
        return fail(`a ${s.type} is not proven`);
    }
  }

  private tryStatement(s: TryStatement, scope: Scope): void {
    this.statement(s.block, scope);
    if (s.handler) {
      const inner = new Scope(scope);
      if (s.handler.param) for (const n of patternNames(s.handler.param)) inner.declare(n, { kind: 'local' });
      checkNames(inner);
      if (s.handler.param) this.pattern(s.handler.param, inner, true);
      this.statement(s.handler.body, inner);
    }
    if (s.finalizer) this.statement(s.finalizer, scope);
  }

  private switchStatement(s: SwitchStatement, scope: Scope): void {
    this.expression(s.discriminant, scope);
    const inner = new Scope(scope);
    this.declareBlock(
      s.cases.flatMap((c) => c.consequent),
      inner,
    );
    for (const c of s.cases) {
      if (c.test) this.expression(c.test, inner);
      for (const x of c.consequent) this.statement(x, inner);
    }
  }

  /** A declaration's patterns and values; `x = require('fs')`'s value is the module, checked at each use. */
  private declaration(d: VariableDeclaration, scope: Scope): void {
    for (const x of d.declarations) {
      this.pattern(x.id, scope, true);
      if (x.id.type === 'Identifier' && this.moduleOf(x.init) !== null) continue;
      if (x.init) this.expression(x.init, scope);
    }
  }

  private func(f: Func, outer: Scope): void {
    if (f.generator) fail('a generator is not proven');
    const scope = new Scope(outer);
    if (f.type === 'FunctionExpression' && f.id) scope.declare(f.id.name, { kind: 'local' });
    for (const p of f.params) for (const n of patternNames(p)) scope.declare(n, { kind: 'local' });
    if (f.body.type === 'BlockStatement') this.declareBlock(f.body.body, scope, f.body);
    else checkNames(scope);
    for (const p of f.params) this.pattern(p, scope, true);
    if (f.body.type === 'BlockStatement') for (const s of f.body.body) this.statement(s, scope);
    else this.expression(f.body, scope);
  }

  /** A pattern's keys and default values; its names are declared (`declaring`) or assigned. */
  private pattern(p: Pattern, scope: Scope, declaring: boolean): void {
    switch (p.type) {
      case 'Identifier':
        if (!declaring) this.target(p, scope);
        return;
      case 'ObjectPattern':
        for (const prop of p.properties) {
          if (prop.type === 'RestElement') this.pattern(prop.argument, scope, declaring);
          else {
            this.key(prop, true);
            this.pattern(prop.value, scope, declaring);
          }
        }
        return;
      case 'ArrayPattern':
        for (const e of p.elements) if (e) this.pattern(e, scope, declaring);
        return;
      case 'RestElement':
        return this.pattern(p.argument, scope, declaring);
      case 'AssignmentPattern':
        this.pattern(p.left, scope, declaring);
        return this.expression(p.right, scope);
      case 'MemberExpression':
        return this.target(p, scope);
    }
  }

  /**
   * An object literal's or pattern's key, written as a name or literal. A pattern reads the member
   * (`const {constructor: F} = ''`): it must be harmless to read. A literal defines an own data
   * property, which reaches nothing, but `__proto__` there sets the prototype.
   */
  private key(prop: Property | AssignmentProperty, reading: boolean): void {
    const k = prop.key;
    if (prop.computed && k.type !== 'Literal') fail('a key computed at run time');
    let name: string;
    if (k.type === 'Identifier') name = k.name;
    else if (k.type === 'Literal') name = String(k.value);
    else return fail('a key that is not a name');
    if (reading ? !harmlessMember(name) : name.startsWith('_')) fail(`the key \`${name}\` is not known to be pure`);
  }

  /** What is assigned to: a variable of the code, a pattern of them, or a member of a value it computed. */
  private target(t: Pattern | Expression, scope: Scope): void {
    if (t.type === 'Identifier') {
      if (scope.lookup(t.name)?.kind !== 'local') fail(`assigns to \`${t.name}\`, which is not a variable of the code`);
      return;
    }
    if (t.type === 'MemberExpression') {
      const { root, parts } = chain(t);
      const free = root.type === 'Identifier' && scope.lookup(root.name)?.kind !== 'local';
      if (free && !(root.type === 'Identifier' && root.name === 'process' && parts.join('.') === 'exitCode'))
        fail('assigns to a member of a global or a module');
      return this.member(t, scope, null);
    }
    if (t.type === 'ObjectPattern' || t.type === 'ArrayPattern' || t.type === 'AssignmentPattern' || t.type === 'RestElement')
      return this.pattern(t, scope, false);
    fail(`assigns to a ${t.type}`);
  }

  private expression(e: Expression | SpreadElement, scope: Scope): void {
    switch (e.type) {
      case 'Identifier':
        return this.reference(e.name, scope);
      case 'Literal':
        // A string is data: no member is reached by a name computed at run time (chain() refuses it).
        return;
      case 'TemplateLiteral':
        for (const q of e.quasis) if (typeof q.value.cooked !== 'string') fail('a template with an invalid escape');
        for (const x of e.expressions) this.expression(x, scope);
        return;
      case 'ArrayExpression':
        for (const x of e.elements) if (x) this.expression(x, scope);
        return;
      case 'ObjectExpression':
        for (const p of e.properties) {
          if (p.type === 'SpreadElement') this.expression(p.argument, scope);
          else {
            this.key(p, false);
            this.expression(p.value, scope);
          }
        }
        return;
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return this.func(e, scope);
      case 'SpreadElement':
      case 'AwaitExpression':
        return this.expression(e.argument, scope);
      case 'UnaryExpression':
        return this.expression(e.argument, scope);
      case 'UpdateExpression':
        return this.target(e.argument, scope);
      case 'BinaryExpression':
        if (e.left.type === 'PrivateIdentifier') fail('a private name');
        this.expression(e.left as Expression, scope);
        return this.expression(e.right, scope);
      case 'LogicalExpression':
        this.expression(e.left, scope);
        return this.expression(e.right, scope);
      case 'AssignmentExpression':
        this.target(e.left, scope);
        return this.expression(e.right, scope);
      case 'ConditionalExpression':
        this.expression(e.test, scope);
        this.expression(e.consequent, scope);
        return this.expression(e.alternate, scope);
      case 'SequenceExpression':
        for (const x of e.expressions) this.expression(x, scope);
        return;
      case 'ChainExpression':
        return this.expression(e.expression, scope);
      case 'MemberExpression':
        return this.member(e, scope, null);
      case 'CallExpression':
        if (e.callee.type === 'MemberExpression') this.member(e.callee, scope, e);
        else if (e.callee.type === 'Super') fail('`super`');
        else if (isRequire(e)) {
          if (this.requireTarget(e).kind !== 'json') fail('a module `require`d other than to use its functions');
        } else this.expression(e.callee, scope);
        for (const a of e.arguments) this.expression(a, scope);
        return;
      case 'NewExpression':
        this.expression(e.callee, scope);
        for (const a of e.arguments) this.expression(a, scope);
        return;
      default:
        return fail(`a ${e.type} is not proven`);
    }
  }

  /** A name used as a value: a variable of the code, or a global listed as a value (`Number`, `Set`). */
  private reference(name: string, scope: Scope): void {
    const b = scope.lookup(name);
    if (b?.kind === 'local') return;
    if (b !== null) fail(`the module \`${name}\` used other than through its functions`);
    if (own(GLOBALS, name) && GLOBALS[name].includes('')) return;
    fail(`\`${name}\` is not a name known to be pure`);
  }

  /** `a.b.c`, the callee of `call` when given: its root resolved, its members checked against the root's list. */
  private member(m: MemberExpression, scope: Scope, call: CallExpression | null): void {
    const { root, parts } = chain(m);
    const bad = parts.find((p) => !harmlessMember(p));
    if (bad !== undefined) fail(`\`.${bad}\` is a method not known to be pure`);
    if (root.type === 'Identifier') {
      const b = scope.lookup(root.name);
      if (b?.kind === 'local') return;
      if (b?.kind === 'conflict') return fail(`\`${root.name}\` is declared twice`);
      if (b?.kind === 'module') return this.moduleMember(b.module, parts, call);
      if (own(MODULES, root.name)) return this.moduleMember(root.name, parts, call);
      if (own(GLOBALS, root.name)) return this.globalMember(root.name, parts);
      return fail(`\`${root.name}\` is not a name known to be pure`);
    }
    if (isRequire(root)) {
      const r = this.requireTarget(root as CallExpression);
      if (r.kind === 'module') this.moduleMember(r.module, parts, call);
      return;
    }
    if (root.type === 'Super') fail('`super`');
    this.expression(root as Expression, scope);
  }

  /** `fs.readFileSync(…)`, `path.join`: a listed member; `fs`'s are only ever called, and their paths read. */
  private moduleMember(module: string, parts: string[], call: CallExpression | null): void {
    const fn = parts[0];
    if (fn === undefined || !MODULES[module].includes(fn)) return fail(`\`${[module, ...parts].join('.')}\` is not known to be pure`);
    if (module !== 'fs') return;
    if (parts.length !== 1 || call === null) return fail(`\`fs.${fn}\` used other than by a direct call`);
    this.fsRead(fn, call);
  }

  /**
   * `fs.readFileSync('x')`: a literal path is read; `0` is stdin; anything else is a path built at
   * run time. `readFileSync`'s options must be an encoding literal (`{flag: 'w'}` truncates).
   */
  private fsRead(fn: string, call: CallExpression): void {
    const args = call.arguments;
    if (args.length > 2 || args.some((a) => a.type === 'SpreadElement')) fail(`\`fs.${fn}\` with arguments that are not known`);
    const [path, options] = args;
    if (fn === 'readFileSync' && options !== undefined && !(options.type === 'Literal' && typeof options.value === 'string'))
      fail('`fs.readFileSync` with options that may open for writing');
    if (fn === 'readFileSync' && path?.type === 'Literal' && path.value === 0) return;
    const literal = path?.type === 'Literal' && typeof path.value === 'string' ? path.value : null;
    this.proof.reads.push({ path: literal, ...(fn === 'readdirSync' ? { list: true } : {}) });
  }

  /** `console.log`, `process.env.HOME`: the longest listed prefix, or the global itself where `''` is listed. */
  private globalMember(global: string, parts: string[]): void {
    const allowed = GLOBALS[global];
    let k = parts.length;
    while (k > 0 && !allowed.includes(parts.slice(0, k).join('.'))) k--;
    if (k === 0 && !allowed.includes('')) return fail(`\`${[global, ...parts].join('.')}\` is not known to be pure`);
    if (global !== 'process' || parts.slice(0, k).join('.') !== 'env') return;
    const variable = parts[k];
    if (variable === undefined) this.proof.wholeEnvironment = true;
    else if (!READABLE_VARIABLES.has(variable)) fail(`reads the environment variable ${variable}`);
  }

  /** A `require(…)` the proof accepts: a relative JSON file is recorded as read; anything else fails. */
  private requireTarget(call: CallExpression): Required {
    const r = readRequire(call);
    if (typeof r === 'string') return fail(r);
    if (r.kind === 'json') {
      this.proof.requiredJson.push(r.path);
      this.proof.reads.push({ path: r.path });
    }
    return r;
  }
}

type Required = { kind: 'module'; module: string } | { kind: 'json'; path: string };

/**
 * `require('fs')` (a listed module) or `require('./x.json')` (a relative JSON file): the only loads
 * proven. Anything else: why not.
 */
function readRequire(call: CallExpression): Required | string {
  const arg = call.arguments[0];
  if (call.arguments.length !== 1 || arg.type !== 'Literal' || typeof arg.value !== 'string') return '`require` of something other than a literal';
  const name = arg.value.replace(/^node:/, '');
  if (/^\.\.?\//.test(name) && name.endsWith('.json')) return { kind: 'json', path: name };
  if (own(MODULES, name)) return { kind: 'module', module: name };
  return `\`require('${arg.value}')\` is not a module known to be pure`;
}

/** `require(…)` itself: the global `require`, which no variable can take the name of (checkNames). */
const isRequire = (n: AnyNode | null | undefined): boolean => n?.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require';

/** A member expression's root object and the names of its members, outermost last; a computed one must be a literal. */
function chain(m: MemberExpression): { root: AnyNode; parts: string[] } {
  const parts: string[] = [];
  let n: AnyNode = m;
  while (n.type === 'MemberExpression') {
    const p = n.property;
    if (!n.computed) parts.unshift(p.type === 'Identifier' ? p.name : fail('a private name'));
    else if (p.type === 'Literal' && (typeof p.value === 'string' || typeof p.value === 'number')) parts.unshift(String(p.value));
    else fail('a property computed at run time');
    n = n.object;
  }
  return { root: n, parts };
}

/**
 * No variable may take a builtin module's or a global's name: where it is out of scope the name is
 * the global again. The one exception is `const fs = require('fs')`, which binds what the global is.
 */
function checkNames(scope: Scope): void {
  for (const [name, b] of scope.names) {
    if (!(RESERVED_BINDINGS.has(name) || name.startsWith('_'))) continue;
    if (b.kind === 'module' && b.module === name) continue;
    fail(`a variable named \`${name}\`, the name of a global or a builtin module`);
  }
}
