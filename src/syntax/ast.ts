/**
 * shellgate's own normalised bash AST: one small type per construct, every node with a source
 * span. It is deliberately smaller than tree-sitter's concrete tree: what matters for deciding is
 * which commands can run, with which words and redirects, in which context.
 */

/** Offsets into the original command string (UTF-16 code units, end exclusive). */
export interface Span {
  start: number;
  end: number;
}

// ---------------------------------------------------------------------------------------------
// Words

export interface Literal {
  type: 'Literal';
  /** Unquoted text as written, backslashes included (quote removal happens in expand/). */
  raw: string;
  span: Span;
}
export interface SingleQuoted {
  type: 'SingleQuoted';
  value: string;
  span: Span;
}
export interface DoubleQuoted {
  type: 'DoubleQuoted';
  parts: WordPart[];
  span: Span;
}
/** `$'…'`, decoded in expand/. */
export interface AnsiC {
  type: 'AnsiC';
  raw: string;
  span: Span;
}
/** `$x`, `${x}`, `${x:-default}`, `${#x}`, `$1`, `$@`… */
export interface ParamExp {
  type: 'ParamExp';
  name: string;
  /** True when written as `$name` or `${name}` with nothing else. */
  plain: boolean;
  /** Words inside the expansion (defaults, patterns): their substitutions can run. */
  inner: WordPart[];
  raw: string;
  span: Span;
}
export interface CmdSubst {
  type: 'CmdSubst';
  backtick: boolean;
  body: Script;
  span: Span;
}
export interface ProcSubst {
  type: 'ProcSubst';
  direction: '<' | '>';
  body: Script;
  span: Span;
}
/** `$(( … ))`: its value is dynamic; substitutions inside it run. */
export interface ArithExp {
  type: 'ArithExp';
  raw: string;
  inner: WordPart[];
  span: Span;
}
/** An unquoted glob pattern piece (`*`, `?`, `[…]`, extglob). */
export interface Glob {
  type: 'Glob';
  raw: string;
  span: Span;
}
/** An unquoted brace expression (`{a,b}`, `{1..5}`). */
export interface Brace {
  type: 'Brace';
  raw: string;
  span: Span;
}
/** A leading unquoted `~` or `~user`. */
export interface Tilde {
  type: 'Tilde';
  user: string;
  span: Span;
}

export type WordPart = Literal | SingleQuoted | DoubleQuoted | AnsiC | ParamExp | CmdSubst | ProcSubst | ArithExp | Glob | Brace | Tilde;

export interface Word {
  type: 'Word';
  parts: WordPart[];
  /** The word exactly as written. */
  raw: string;
  span: Span;
}

// ---------------------------------------------------------------------------------------------
// Redirects and assignments

export interface Heredoc {
  /** Delimiter quoted (`<<'EOF'`): the body is literal; otherwise it expands. */
  quoted: boolean;
  body: Word;
}

export interface Redirect {
  type: 'Redirect';
  /** `>`, `>>`, `>|`, `<`, `<>`, `&>`, `&>>`, `>&`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** Explicit file descriptor written before the operator (`2>`), if any. */
  fd: number | null;
  /** Target word: a file, an fd number for dups, the delimiter for heredocs, the here-string. */
  target: Word;
  heredoc: Heredoc | null;
  span: Span;
}

export interface Assignment {
  type: 'Assignment';
  name: string;
  /** `+=` rather than `=`. */
  append: boolean;
  /** Scalar value; null for arrays. */
  value: Word | null;
  /** Array elements for `a=(…)`. */
  array: Word[] | null;
  /** Subscript written on the name (`a[$(id)]=1`): substitutions there run. */
  subscript: WordPart[];
  span: Span;
}

// ---------------------------------------------------------------------------------------------
// Commands

interface CommandBase {
  redirects: Redirect[];
  span: Span;
}

export interface SimpleCommand extends CommandBase {
  type: 'SimpleCommand';
  assignments: Assignment[];
  words: Word[];
}
export type ListOp = ';' | '&&' | '||' | '&' | '\n';
/** Commands joined by `;`, `&&`, `||`, `&` or newlines. `operators[i]` follows `items[i]`. */
export interface List extends CommandBase {
  type: 'List';
  items: Command[];
  operators: (ListOp | null)[];
}
export interface Pipeline extends CommandBase {
  type: 'Pipeline';
  commands: Command[];
  /** `|` or `|&` between commands[i] and commands[i+1]. */
  operators: ('|' | '|&')[];
  negated: boolean;
}
export interface Subshell extends CommandBase {
  type: 'Subshell';
  body: List;
}
export interface Group extends CommandBase {
  type: 'Group';
  body: List;
}
export interface FunctionDef extends CommandBase {
  type: 'FunctionDef';
  name: string;
  body: Command;
}
export interface IfClause {
  condition: List;
  body: List;
}
export interface If extends CommandBase {
  type: 'If';
  clauses: IfClause[];
  elseBody: List | null;
}
export interface For extends CommandBase {
  type: 'For';
  /** `select` loops share this shape. */
  select: boolean;
  variable: string;
  /** Null when the list is omitted (`for x; do`: iterates "$@"). */
  items: Word[] | null;
  body: List;
}
/** C-style `for (( init; cond; update ))`. */
export interface ArithFor extends CommandBase {
  type: 'ArithFor';
  inner: WordPart[];
  body: List;
}
export interface While extends CommandBase {
  type: 'While';
  until: boolean;
  condition: List;
  body: List;
}
export interface CaseItem {
  patterns: Word[];
  body: List;
}
export interface Case extends CommandBase {
  type: 'Case';
  word: Word;
  items: CaseItem[];
}
/** `[[ … ]]`: operands are words; substitutions in them run. */
export interface TestCommand extends CommandBase {
  type: 'TestCommand';
  /** `[` (the test builtin) or `[[` (the keyword). */
  bracket: '[' | '[[';
  words: Word[];
}
/** `(( … ))`. */
export interface ArithCommand extends CommandBase {
  type: 'ArithCommand';
  raw: string;
  inner: WordPart[];
}
/** A construct the parser reported as an error or that we do not model; never allowed. */
export interface Unparsed extends CommandBase {
  type: 'Unparsed';
  reason: 'error' | 'missing' | 'unsupported' | 'too-deep';
  raw: string;
  /** Substitutions found inside it, still analysed. */
  inner: WordPart[];
}

export type Command =
  SimpleCommand | List | Pipeline | Subshell | Group | FunctionDef | If | For | ArithFor | While | Case | TestCommand | ArithCommand | Unparsed;

export interface Script {
  type: 'Script';
  body: List;
  span: Span;
}

export type Node = Script | Command | Word | WordPart | Redirect | Assignment;
