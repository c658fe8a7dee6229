/**
 * A second front end: the `bash-parser` package (npm, v0.5.0, CommonJS) parses the command and
 * this adapter converts its tree into shellgate's own AST (ast.ts), so the two parsers can be
 * compared (test/differential) or one used where the other fails.
 *
 * What comes from bash-parser: the command structure (lists, `&&`/`||`, `&`, pipelines, simple
 * commands, subshells, groups, functions, if/for/while/until/case), which tokens are words,
 * assignments and redirects, and where each word starts and ends (`insertLOC`). What the adapter
 * adds itself, with a small scanner, because bash-parser does not give it:
 *
 * - word parts: bash-parser's `text` has had quotes removed (and not reliably: `x#y` comes back
 *   as `x`), so each word is re-scanned from its source slice into Literal, SingleQuoted,
 *   DoubleQuoted, AnsiC, ParamExp, CmdSubst, ProcSubst, ArithExp (and Glob/Brace/Tilde via
 *   shellgate's own splitUnquoted). The body of a `$(…)` or backquote substitution is parsed with
 *   bash-parser again (its own nested tree carries no locations).
 * - separators: bash-parser records `&` (`async`) but not whether `;` or a newline separated two
 *   commands; that is read from the source between them.
 * - heredocs: bash-parser 0.5.0 does not read heredoc bodies (it parses them as commands and
 *   drops the delimiter). Before parsing, the adapter finds each `<<`/`<<-`, blanks its body in
 *   the text given to bash-parser (offsets unchanged), and rebuilds the redirect from the source.
 *
 * Offsets: bash-parser counts code points, our spans count UTF-16 code units; they are mapped.
 */
import { createRequire } from 'node:module';
import type {
  Assignment,
  CaseItem,
  Command,
  IfClause,
  List,
  ListOp,
  Pipeline,
  Redirect,
  Script,
  SimpleCommand,
  Span,
  Word,
  WordPart,
} from './ast.js';
import { splitUnquoted } from './convert-words.js';

// ---------------------------------------------------------------------------------------------
// Loading

type BashParserFn = (source: string, options?: { mode?: string; insertLOC?: boolean }) => BPNode;

let bashParser: BashParserFn | null = null;
let loading: Promise<void> | null = null;

/** Load bash-parser once per process (it is CommonJS; loaded through createRequire). */
export async function loadBashParser(): Promise<void> {
  if (bashParser) return;
  if (!loading) {
    loading = Promise.resolve().then(() => {
      const require = createRequire(import.meta.url);
      bashParser = require('bash-parser') as BashParserFn;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

// ---------------------------------------------------------------------------------------------
// bash-parser's tree (only what the adapter reads)

interface BPPoint {
  char: number;
}
interface BPLoc {
  start: BPPoint;
  end: BPPoint;
}
interface BPNode {
  type: string;
  loc?: BPLoc;
  text?: string;
  commands?: BPNode[];
  async?: boolean;
  bang?: boolean;
  /** 'and' / 'or' on LogicalExpression; the operator token on Redirect. */
  op?: string | BPNode;
  left?: BPNode;
  right?: BPNode;
  name?: BPNode;
  prefix?: BPNode[];
  suffix?: BPNode[];
  list?: BPNode;
  body?: BPNode;
  redirections?: BPNode[];
  clause?: BPNode;
  then?: BPNode;
  else?: BPNode;
  wordlist?: BPNode[];
  do?: BPNode;
  cases?: BPNode[];
  pattern?: BPNode[];
  file?: BPNode;
  numberIo?: BPNode;
  /** Set when bash-parser split one word into fields (it splits on NUL characters). */
  fieldIdx?: number;
}

/** bash-parser threw somewhere (also inside a substitution body): the whole parse is null. */
class ParseFailure extends Error {}

// ---------------------------------------------------------------------------------------------
// Frames: a text bash-parser parsed, with its offset mapping back to the original source.

interface Frame {
  /** The text as given to bash-parser (heredoc bodies blanked, backquote escapes removed). */
  text: string;
  /** Code-point index → code-unit index in `text`; null when they are the same. */
  cp: number[] | null;
  /** Code-unit index in `text` → code-unit index in the original source. */
  g: (i: number) => number;
}

function codePointMap(text: string): number[] | null {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  const map: number[] = [];
  let i = 0;
  for (const ch of text) {
    map.push(i);
    i += ch.length;
  }
  map.push(i);
  return map;
}

function makeFrame(text: string, g: (i: number) => number): Frame {
  return { text, cp: codePointMap(text), g };
}

// ---------------------------------------------------------------------------------------------
// Heredocs (found before parsing)

interface HeredocInfo {
  op: '<<' | '<<-';
  opStart: number;
  delimStart: number;
  delimEnd: number;
  quoted: boolean;
  bodyStart: number;
  bodyEnd: number;
}

const WORD_END = /[\s;&|<>()]/;

/**
 * Prepare the text for bash-parser, keeping every offset:
 * - find heredocs outside quotes, comments and arithmetic (also inside `$(…)`) and blank their
 *   bodies (every character but newlines becomes a space), so bash-parser sees empty lines;
 * - bash-parser reads `&>file` as `&` (background) then `>file`: the `&` of `&>`/`&>>` is
 *   blanked and its position remembered, so the redirect gets its real operator back.
 */
function prepare(source: string): { text: string; heredocs: HeredocInfo[]; ampRedirects: Set<number> } {
  const ampRedirects = new Set<number>();
  if (!source.includes('<<') && !source.includes('&>')) return { text: source, heredocs: [], ampRedirects };
  const chars = source.split('');
  const heredocs: HeredocInfo[] = [];
  let pending: HeredocInfo[] = [];
  const n = source.length;

  const readBodies = (from: number): number => {
    let pos = from;
    for (const h of pending) {
      h.bodyStart = pos;
      h.bodyEnd = n;
      const delim = unquoteDelimiter(source.slice(h.delimStart, h.delimEnd));
      let next = n;
      while (pos < n) {
        let nl = source.indexOf('\n', pos);
        if (nl < 0) nl = n;
        let line = source.slice(pos, nl);
        if (h.op === '<<-') line = line.replace(/^\t+/, '');
        if (line === delim) {
          h.bodyEnd = pos;
          next = Math.min(nl + 1, n);
          break;
        }
        pos = nl + 1;
      }
      if (pos >= n) next = n;
      for (let k = h.bodyStart; k < next && k < n; k++) if (chars[k] !== '\n') chars[k] = ' ';
      pos = next;
    }
    pending = [];
    return pos;
  };

  /** Scan unquoted shell text from i until `closer` (')' for `$(`) or the end; returns the index after. */
  const top = (start: number, closer: string | null): number => {
    let i = start;
    let depth = 0;
    let wordStart = true;
    while (i < n) {
      const c = source[i];
      if (c === '\\') {
        i += 2;
        wordStart = false;
        continue;
      }
      if (c === '\n') {
        i = pending.length > 0 ? readBodies(i + 1) : i + 1;
        wordStart = true;
        continue;
      }
      if (c === '#' && wordStart) {
        while (i < n && source[i] !== '\n') i++;
        continue;
      }
      if (c === "'") {
        const j = source.indexOf("'", i + 1);
        i = j < 0 ? n : j + 1;
      } else if (c === '"') {
        i = dq(i + 1);
      } else if (c === '`') {
        i = backtickEnd(source, i, n);
      } else if (c === '$' && source[i + 1] === "'") {
        i = ansiEnd(source, i + 1, n);
      } else if (c === '$' && source.startsWith('((', i + 1)) {
        const end = arithEnd(source, i, n);
        i = end > 0 ? end : top(i + 2, ')');
      } else if (c === '$' && source[i + 1] === '(') {
        i = top(i + 2, ')');
      } else if (c === '$' && source[i + 1] === '{') {
        i = braceEnd(source, i, n);
      } else if (c === '<' && source[i + 1] === '<' && source[i + 2] !== '<') {
        i = heredocOp(i);
      } else if (c === '&' && source[i + 1] === '>' && !/[<>&]/.test(source[i - 1] ?? '')) {
        chars[i] = ' ';
        ampRedirects.add(i + 1);
        i++;
      } else if (c === '(') {
        depth++;
        i++;
      } else if (c === ')') {
        i++;
        if (depth === 0 && closer === ')') return i;
        depth = Math.max(0, depth - 1);
      } else {
        i++;
      }
      wordStart = /[\s;&|()<>]/.test(c);
    }
    return i;
  };

  const dq = (start: number): number => {
    let i = start;
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else if (c === '`') i = backtickEnd(source, i, n);
      else if (c === '$' && source.startsWith('((', i + 1)) {
        const end = arithEnd(source, i, n);
        i = end > 0 ? end : top(i + 2, ')');
      } else if (c === '$' && source[i + 1] === '(') i = top(i + 2, ')');
      else if (c === '$' && source[i + 1] === '{') i = braceEnd(source, i, n);
      else i++;
    }
    return i;
  };

  const heredocOp = (i: number): number => {
    const dash = source[i + 2] === '-';
    let j = i + (dash ? 3 : 2);
    while (j < n && (source[j] === ' ' || source[j] === '\t')) j++;
    const delimStart = j;
    while (j < n && !WORD_END.test(source[j])) {
      const c = source[j];
      if (c === '\\') j += 2;
      else if (c === "'") {
        const k = source.indexOf("'", j + 1);
        j = k < 0 ? n : k + 1;
      } else if (c === '"') {
        const k = source.indexOf('"', j + 1);
        j = k < 0 ? n : k + 1;
      } else j++;
    }
    j = Math.min(j, n);
    if (j === delimStart) return j; // `<<` with no word: a syntax error; leave it to the parser
    const h: HeredocInfo = {
      op: dash ? '<<-' : '<<',
      opStart: i,
      delimStart,
      delimEnd: j,
      quoted: /['"\\]/.test(source.slice(delimStart, j)),
      bodyStart: n,
      bodyEnd: n,
    };
    heredocs.push(h);
    pending.push(h);
    return j;
  };

  top(0, null);
  if (pending.length > 0) readBodies(n);
  return { text: chars.join(''), heredocs, ampRedirects };
}

function unquoteDelimiter(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) out += raw[++i];
    else if (c !== "'" && c !== '"') out += c;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// End finders on a text (shared by the heredoc pre-pass and the word scanner)

function backtickEnd(t: string, i: number, limit: number): number {
  for (let j = i + 1; j < limit; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '`') return j + 1;
  }
  return limit;
}

/** `$'…'`: i is the opening quote. */
function ansiEnd(t: string, i: number, limit: number): number {
  for (let j = i + 1; j < limit; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === "'") return j + 1;
  }
  return limit;
}

function dqEnd(t: string, i: number, limit: number): number {
  let j = i + 1;
  while (j < limit) {
    const c = t[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else if (c === '`') j = backtickEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === '(') j = parenEnd(t, j + 1, limit);
    else if (c === '$' && t[j + 1] === '{') j = braceEnd(t, j, limit);
    else j++;
  }
  return limit;
}

/**
 * Index after the bracket that closes the one at `start` (`(` or `{`), skipping quotes,
 * backquotes, `$'…'`, nested `${…}` and `$(…)`, and (in parentheses) comments.
 */
function nestedEnd(t: string, start: number, limit: number, open: string, close: string): number {
  let depth = 0;
  let j = start;
  let wordStart = true;
  while (j < limit) {
    const c = t[j];
    if (c === '\\') {
      j += 2;
      wordStart = false;
      continue;
    }
    if (c === '#' && wordStart && depth > 0 && open === '(') {
      while (j < limit && t[j] !== '\n') j++;
      continue;
    }
    if (c === open) {
      depth++;
      j++;
    } else if (c === close) {
      depth--;
      j++;
      if (depth === 0) return j;
    } else if (c === "'") {
      const k = t.indexOf("'", j + 1);
      j = k < 0 || k >= limit ? limit : k + 1;
    } else if (c === '"') j = dqEnd(t, j, limit);
    else if (c === '`') j = backtickEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === "'") j = ansiEnd(t, j + 1, limit);
    else if (c === '$' && t[j + 1] === '{' && open !== '{') j = braceEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === '(' && open !== '(') j = parenEnd(t, j + 1, limit);
    else j++;
    wordStart = /[\s;&|()<>]/.test(c);
  }
  return limit;
}

/** Index after the `)` matching the `(` at i, skipping quotes, substitutions and comments. */
function parenEnd(t: string, i: number, limit: number): number {
  return nestedEnd(t, i, limit, '(', ')');
}

/** `${…}` starting at i (the `$`): index after the matching `}`. */
function braceEnd(t: string, i: number, limit: number): number {
  return nestedEnd(t, i + 1, limit, '{', '}');
}

/** `$((…))` starting at i (the `$`): index after `))`, or -1 when it is `$( (…) … )` instead. */
function arithEnd(t: string, i: number, limit: number): number {
  let depth = 0;
  let lastClose = -2;
  let j = i + 1;
  while (j < limit) {
    const c = t[j];
    if (c === '\\') j += 2;
    else if (c === '(') {
      depth++;
      j++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return lastClose === j - 1 ? j + 1 : -1;
      if (depth === 1) lastClose = j;
      j++;
    } else if (c === "'") {
      const k = t.indexOf("'", j + 1);
      j = k < 0 || k >= limit ? limit : k + 1;
    } else if (c === '"') j = dqEnd(t, j, limit);
    else if (c === '`') j = backtickEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === '{') j = braceEnd(t, j, limit);
    else j++;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Conversion

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const SUBSCRIPT_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\[/;

/** For `name[…]=` / `name[…]+=`: the index of the `=`; else -1. The subscript may hold `]` in quotes or substitutions. */
function subscriptEnd(raw: string): number {
  const m = SUBSCRIPT_ASSIGNMENT.exec(raw);
  if (!m) return -1;
  let depth = 0;
  for (let i = m[0].length - 1; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const k = raw.indexOf("'", i + 1);
      if (k < 0) return -1;
      i = k;
    } else if (c === '"') {
      const k = dqEnd(raw, i, raw.length);
      i = k - 1;
    } else if (c === '$' && raw[i + 1] === '(') i = parenEnd(raw, i + 1, raw.length) - 1;
    else if (c === '`') i = backtickEnd(raw, i, raw.length) - 1;
    else if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) {
        const eq = raw[i + 1] === '+' ? i + 2 : i + 1;
        return raw[eq] === '=' ? eq : -1;
      }
    }
  }
  return -1;
}

const DECLARATION_BUILTINS = new Set(['export', 'local', 'declare', 'typeset', 'readonly']);

/**
 * Where the adapter made up for something bash-parser gets wrong or lacks (without it the two
 * parsers would disagree): heredoc bodies read as commands, `&>` read as `&` + `>`, a digit word
 * before a redirect taken as its fd, `a[i]=x` taken as a command name, a word split at a NUL.
 */
export type AdapterRepair = 'heredoc' | 'amp-redirect' | 'io-number-word' | 'subscript-assignment' | 'nul-field';

class Converter {
  readonly repairs = new Set<AdapterRepair>();

  constructor(
    private readonly source: string,
    private readonly heredocs: Map<number, HeredocInfo>,
    private readonly ampRedirects: Set<number>,
    private readonly bp: BashParserFn,
  ) {}

  /** Parse `frame.text` with bash-parser and convert it. */
  parseFrame(frame: Frame, span: Span): Script {
    if (frame.text.trim() === '') return { type: 'Script', body: this.emptyList(span), span };
    let ast: BPNode;
    try {
      ast = this.bp(frame.text, { mode: 'bash', insertLOC: true });
    } catch {
      throw new ParseFailure();
    }
    return { type: 'Script', body: this.list(frame, ast.commands ?? [], span), span };
  }

  private emptyList(span: Span): List {
    return { type: 'List', items: [], operators: [], redirects: [], span };
  }

  // --- positions

  /** Code-unit offset in frame.text of a bash-parser code-point index. */
  private cu(f: Frame, cp: number): number {
    if (!f.cp) return cp;
    return f.cp[Math.max(0, Math.min(cp, f.cp.length - 1))];
  }

  /** Local [start, end) of a node (bash-parser's end is inclusive). */
  private local(f: Frame, n: BPNode | undefined): { start: number; end: number } | null {
    if (!n?.loc?.start || !n.loc.end) return null;
    const start = Math.min(this.cu(f, n.loc.start.char), f.text.length);
    // A word ending in `$name` at the very end of the text ends one past it in bash-parser.
    const end = Math.min(this.cu(f, n.loc.end.char + 1), f.text.length);
    return { start, end: Math.max(start, end) };
  }

  private spanOf(f: Frame, start: number, end: number): Span {
    const s = f.g(start);
    const e = end > start ? f.g(end - 1) + 1 : s;
    return { start: s, end: Math.max(s, e) };
  }

  private nodeSpan(f: Frame, n: BPNode | undefined, fallback: Span): Span {
    const l = this.local(f, n);
    return l ? this.spanOf(f, l.start, l.end) : fallback;
  }

  // --- lists

  private list(f: Frame, nodes: BPNode[], span: Span): List {
    const items: Command[] = [];
    const operators: (ListOp | null)[] = [];
    nodes.forEach((node, k) => {
      this.flattenLogical(f, node, items, operators, span);
      let op: ListOp | null = null;
      if (node.async) op = '&';
      else {
        const here = this.local(f, node);
        const next = nodes[k + 1] ? this.local(f, nodes[k + 1]) : null;
        if (here) op = next ? this.separatorBetween(f.text, here.end, next.start) : this.trailingSemicolon(f.text, here.end);
        else if (next) op = '\n';
      }
      operators[operators.length - 1] = op;
    });
    return { type: 'List', items, operators, redirects: [], span };
  }

  /** `a && b || c` nests to the left in bash-parser (thousands deep for long chains): walk it iteratively. */
  private flattenLogical(f: Frame, node: BPNode, items: Command[], operators: (ListOp | null)[], span: Span): void {
    const rights: { op: ListOp; node: BPNode }[] = [];
    let cur = node;
    while (cur.type === 'LogicalExpression' && cur.left && cur.right) {
      rights.push({ op: cur.op === 'and' ? '&&' : '||', node: cur.right });
      cur = cur.left;
    }
    items.push(this.pipelineOrCommand(f, cur, span));
    operators.push(null);
    for (let i = rights.length - 1; i >= 0; i--) {
      operators[operators.length - 1] = rights[i].op;
      if (rights[i].node.type === 'LogicalExpression') this.flattenLogical(f, rights[i].node, items, operators, span);
      else {
        items.push(this.pipelineOrCommand(f, rights[i].node, span));
        operators.push(null);
      }
    }
  }

  /** `;` or newline between two list items (comments and blanked heredoc bodies skipped). */
  private separatorBetween(t: string, from: number, to: number): ListOp {
    let sawNewline = false;
    for (let i = from; i < to; i++) {
      const c = t[i];
      if (c === '#') {
        while (i < to && t[i] !== '\n') i++;
        if (i < to) sawNewline = true;
      } else if (c === ';') return ';';
      else if (c === '&') return '&';
      else if (c === '\n') sawNewline = true;
    }
    return sawNewline ? '\n' : ';';
  }

  /** A `;` right after the last item of a list (not a case `;;`/`;&`). */
  private trailingSemicolon(t: string, from: number): ListOp | null {
    let i = from;
    while (i < t.length && (t[i] === ' ' || t[i] === '\t')) i++;
    if (t[i] === ';' && t[i + 1] !== ';' && t[i + 1] !== '&') return ';';
    return null;
  }

  // --- commands

  private pipelineOrCommand(f: Frame, node: BPNode, fallback: Span): Command {
    if (node.type === 'Pipeline') {
      const commands = (node.commands ?? []).map((c) => this.command(f, c, fallback));
      const operators: ('|' | '|&')[] = [];
      for (let k = 0; k + 1 < (node.commands ?? []).length; k++) {
        const a = this.local(f, node.commands![k]);
        const b = this.local(f, node.commands![k + 1]);
        const gap = a && b ? f.text.slice(a.end, b.start) : '|';
        operators.push(gap.includes('|&') ? '|&' : '|');
      }
      const p: Pipeline = {
        type: 'Pipeline',
        commands,
        operators,
        negated: !!node.bang,
        redirects: [],
        span: this.nodeSpan(f, node, fallback),
      };
      return p;
    }
    const command = this.command(f, node, fallback);
    if (node.bang) {
      return { type: 'Pipeline', commands: [command], operators: [], negated: true, redirects: [], span: command.span };
    }
    return command;
  }

  private command(f: Frame, node: BPNode, fallback: Span): Command {
    const span = this.nodeSpan(f, node, fallback);
    let cmd: Command;
    switch (node.type) {
      case 'Command':
        return this.simpleCommand(f, node, span);
      case 'Pipeline':
      case 'LogicalExpression':
        // Not produced inside a pipeline stage by bash-parser; keep them as a nested list.
        return this.list(f, [node], span);
      case 'Subshell':
        cmd = { type: 'Subshell', body: this.compoundList(f, node.list, span), redirects: [], span };
        break;
      case 'CompoundList':
        cmd = { type: 'Group', body: this.list(f, node.commands ?? [], span), redirects: [], span };
        break;
      case 'Function': {
        const body = node.body ? this.command(f, node.body, span) : ({ type: 'Group', body: this.emptyList(span), redirects: [], span } as Command);
        cmd = { type: 'FunctionDef', name: node.name?.text ?? '', body, redirects: [], span };
        break;
      }
      case 'If':
        cmd = this.ifCommand(f, node, span);
        break;
      case 'For':
        cmd = {
          type: 'For',
          select: false,
          variable: node.name?.text ?? '',
          items: node.wordlist ? node.wordlist.map((w) => this.word(f, w)) : null,
          body: this.compoundList(f, node.do, span),
          redirects: [],
          span,
        };
        break;
      case 'While':
      case 'Until':
        cmd = {
          type: 'While',
          until: node.type === 'Until',
          condition: this.compoundList(f, node.clause, span),
          body: this.compoundList(f, node.do, span),
          redirects: [],
          span,
        };
        break;
      case 'Case': {
        const items: CaseItem[] = (node.cases ?? []).map((c) => ({
          patterns: (c.pattern ?? []).map((w) => this.word(f, w)),
          body: this.compoundList(f, c.body, this.nodeSpan(f, c, span)),
        }));
        cmd = {
          type: 'Case',
          word: node.clause ? this.word(f, node.clause) : { type: 'Word', parts: [], raw: '', span },
          items,
          redirects: [],
          span,
        };
        break;
      }
      default:
        throw new ParseFailure(`unknown bash-parser node ${node.type}`);
    }
    for (const r of node.redirections ?? []) {
      const red = this.redirect(f, r, null);
      if (red) cmd.redirects.push(red);
    }
    return cmd;
  }

  private compoundList(f: Frame, node: BPNode | undefined, fallback: Span): List {
    if (!node) return this.emptyList(fallback);
    return this.list(f, node.commands ?? [], this.nodeSpan(f, node, fallback));
  }

  private ifCommand(f: Frame, node: BPNode, span: Span): Command {
    const clauses: IfClause[] = [];
    let elseBody: List | null = null;
    let cur: BPNode | undefined = node;
    while (cur) {
      clauses.push({ condition: this.compoundList(f, cur.clause, span), body: this.compoundList(f, cur.then, span) });
      const next: BPNode | undefined = cur.else;
      if (next?.type === 'If') cur = next; // `elif`
      else {
        if (next) elseBody = this.compoundList(f, next, span);
        cur = undefined;
      }
    }
    return { type: 'If', clauses, elseBody, redirects: [], span };
  }

  private simpleCommand(f: Frame, node: BPNode, span: Span): SimpleCommand {
    const cmd: SimpleCommand = { type: 'SimpleCommand', assignments: [], words: [], redirects: [], span };
    // bash-parser splits a word at a NUL character into fields that all carry the whole word's
    // location: the source word is one word.
    const keep = (x: BPNode) => {
      if (!x.fieldIdx) return true;
      this.repairs.add('nul-field');
      return false;
    };
    for (const p of (node.prefix ?? []).filter(keep)) {
      if (p.type === 'AssignmentWord' && cmd.words.length === 0) cmd.assignments.push(this.assignment(f, p));
      else this.wordOrRedirect(f, p, cmd);
    }
    if (node.name && keep(node.name)) cmd.words.push(this.word(f, node.name));
    const declaration = cmd.words.length > 0 && DECLARATION_BUILTINS.has(cmd.words[0].raw);
    const suffix = (node.suffix ?? []).filter(keep);
    for (const s of suffix) this.wordOrRedirect(f, s, cmd, declaration);
    // bash-parser only knows `name=value` assignments; `a[$i]=x cmd` comes back as a command
    // named `a[$i]=x`. bash reads it (and any assignments after it) as assignments.
    if (cmd.words.length > 0 && SUBSCRIPT_ASSIGNMENT.test(cmd.words[0].raw) && subscriptEnd(cmd.words[0].raw) > 0) {
      const words = [node.name!, ...suffix].filter((x) => x.type !== 'Redirect' && x.type !== 'dless' && x.type !== 'dlessdash' && x.type !== 'io_number');
      this.repairs.add('subscript-assignment');
      let k = 0;
      while (k < cmd.words.length && k < words.length && (ASSIGNMENT.test(cmd.words[k].raw) || subscriptEnd(cmd.words[k].raw) > 0)) {
        cmd.assignments.push(this.assignment(f, words[k]));
        k++;
      }
      cmd.words = cmd.words.slice(k);
    }
    return cmd;
  }

  private wordOrRedirect(f: Frame, n: BPNode, cmd: SimpleCommand, declaration = false): void {
    if (n.type === 'Word' || n.type === 'AssignmentWord' || n.type === 'Name') {
      cmd.words.push(declaration ? this.declarationWord(f, n) : this.word(f, n));
      return;
    }
    const r = this.redirect(f, n, cmd);
    if (r) cmd.redirects.push(r);
  }

  private redirect(f: Frame, n: BPNode, owner: SimpleCommand | null): Redirect | null {
    if (n.type === 'dless' || n.type === 'dlessdash' || n.type === 'io_number') return this.heredoc(f, n);
    if (n.type !== 'Redirect') throw new ParseFailure(`unexpected bash-parser node ${n.type}`);
    const opNode = typeof n.op === 'object' ? n.op : undefined;
    let op = opNode?.text ?? '>';
    const opLoc = this.local(f, opNode);
    let fd: number | null = null;
    let loc = this.local(f, n);
    if (n.numberIo) {
      const numLoc = this.local(f, n.numberIo);
      if (numLoc && opLoc && numLoc.end !== opLoc.start) {
        // bash-parser takes any all-digit word before a redirect as its fd (`nc host 4444 > f`);
        // bash only when it touches the operator. Here it is an ordinary word.
        if (owner) owner.words.push(this.word(f, n.numberIo));
        this.repairs.add('io-number-word');
        if (loc) loc = { start: opLoc.start, end: loc.end };
      } else if (n.numberIo.text !== undefined && /^\d+$/.test(n.numberIo.text)) fd = Number(n.numberIo.text);
    }
    let span = loc ? this.spanOf(f, loc.start, loc.end) : { start: 0, end: this.source.length };
    if (opLoc && fd === null && this.ampRedirects.has(f.g(opLoc.start))) {
      op = '&' + op;
      span = { start: span.start - 1, end: span.end };
      this.repairs.add('amp-redirect');
    }
    const target = n.file ? this.word(f, n.file) : { type: 'Word' as const, parts: [], raw: '', span: { start: span.end, end: span.end } };
    return { type: 'Redirect', op, fd, target, heredoc: null, span };
  }

  /** bash-parser keeps only the `<<` token of a heredoc; the rest comes from the pre-pass. */
  private heredoc(f: Frame, n: BPNode): Redirect | null {
    const loc = this.local(f, n);
    if (!loc) throw new ParseFailure('heredoc without location');
    let fd: number | null = null;
    let opAt = f.g(loc.start);
    if (n.type === 'io_number') {
      fd = Number(n.text);
      opAt = f.g(loc.end - 1) + 1;
    }
    const h = this.heredocs.get(opAt);
    if (!h) throw new ParseFailure('heredoc not found by the pre-pass');
    this.repairs.add('heredoc');
    const srcFrame = makeFrame(this.source, (i) => i);
    const delimRaw = this.source.slice(h.delimStart, h.delimEnd);
    const target: Word = {
      type: 'Word',
      // As shellgate's own converter does: the delimiter is kept as written.
      parts: splitUnquoted(delimRaw, h.delimStart, false),
      raw: delimRaw,
      span: { start: h.delimStart, end: h.delimEnd },
    };
    const bodyText = this.source.slice(h.bodyStart, h.bodyEnd);
    const bodySpan = { start: h.bodyStart, end: h.bodyEnd };
    const body: Word = h.quoted
      ? { type: 'Word', parts: [{ type: 'SingleQuoted', value: bodyText, span: bodySpan }], raw: bodyText, span: bodySpan }
      : { type: 'Word', parts: this.scanDouble(srcFrame, h.bodyStart, h.bodyEnd, true), raw: bodyText, span: bodySpan };
    const start = fd === null ? opAt : f.g(loc.start);
    return {
      type: 'Redirect',
      op: h.op,
      fd,
      target,
      heredoc: { quoted: h.quoted, body },
      span: { start, end: h.delimEnd },
    };
  }

  private assignment(f: Frame, n: BPNode): Assignment {
    const loc = this.local(f, n)!;
    const raw = f.text.slice(loc.start, loc.end);
    const span = this.spanOf(f, loc.start, loc.end);
    const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(raw);
    const name = m ? m[1] : '';
    let i = name.length;
    const subscript: WordPart[] = [];
    if (raw[i] === '[') {
      const eq = subscriptEnd(raw);
      const end = eq < 0 ? i : raw[eq - 1] === '+' ? eq - 2 : eq - 1; // the `]`
      subscript.push(...this.scanUnquoted(f, loc.start + i + 1, loc.start + end, false).filter(isExpansion));
      i = end + 1;
    }
    const append = raw[i] === '+';
    if (append) i++;
    i++; // '='
    const vStart = loc.start + Math.min(i, raw.length);
    const value: Word = {
      type: 'Word',
      parts: this.scanUnquoted(f, vStart, loc.end, true),
      raw: f.text.slice(vStart, loc.end),
      span: this.spanOf(f, vStart, loc.end),
    };
    return { type: 'Assignment', name, append, value, array: null, subscript, span };
  }

  // --- words

  private word(f: Frame, n: BPNode): Word {
    const loc = this.local(f, n);
    if (!loc) throw new ParseFailure('word without location');
    return {
      type: 'Word',
      parts: this.scanUnquoted(f, loc.start, loc.end, true),
      raw: f.text.slice(loc.start, loc.end),
      span: this.spanOf(f, loc.start, loc.end),
    };
  }

  /** `export A=~/x`: bash expands a tilde after the `=` of an assignment-like argument. */
  private declarationWord(f: Frame, n: BPNode): Word {
    const w = this.word(f, n);
    const m = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.exec(w.raw);
    if (!m) return w;
    const loc = this.local(f, n)!;
    const at = loc.start + m[0].length;
    const parts: WordPart[] = [
      { type: 'Literal', raw: m[0], span: this.spanOf(f, loc.start, at) },
      ...this.scanUnquoted(f, at, loc.end, true),
    ];
    return { ...w, parts };
  }

  /** Parts of unquoted text in [a, b) of the frame. */
  private scanUnquoted(f: Frame, a: number, b: number, atStart: boolean): WordPart[] {
    const t = f.text;
    const out: WordPart[] = [];
    let runStart = -1;
    const flush = (i: number) => {
      if (runStart >= 0 && i > runStart) out.push(...this.unquotedRun(f, runStart, i, atStart && out.length === 0 && runStart === a));
      runStart = -1;
    };
    let i = a;
    while (i < b) {
      const c = t[i];
      if (c === '\\') {
        if (runStart < 0) runStart = i;
        i = Math.min(i + 2, b);
        continue;
      }
      if (c === "'") {
        flush(i);
        const j = t.indexOf("'", i + 1);
        const end = j < 0 || j >= b ? b : j + 1;
        out.push({ type: 'SingleQuoted', value: t.slice(i + 1, Math.max(i + 1, end - 1)), span: this.spanOf(f, i, end) });
        i = end;
        continue;
      }
      if (c === '"') {
        flush(i);
        const end = Math.min(dqEnd(t, i, b), b);
        out.push({ type: 'DoubleQuoted', parts: this.scanDouble(f, i + 1, Math.max(i + 1, end - 1), false), span: this.spanOf(f, i, end) });
        i = end;
        continue;
      }
      if (c === '$' && t[i + 1] === "'") {
        flush(i);
        const end = Math.min(ansiEnd(t, i + 1, b), b);
        out.push({ type: 'AnsiC', raw: t.slice(i, end), span: this.spanOf(f, i, end) });
        i = end;
        continue;
      }
      if (c === '$' && t[i + 1] === '"') {
        flush(i);
        const end = Math.min(dqEnd(t, i + 1, b), b);
        out.push({ type: 'DoubleQuoted', parts: this.scanDouble(f, i + 2, Math.max(i + 2, end - 1), false), span: this.spanOf(f, i + 1, end) });
        i = end;
        continue;
      }
      if ((c === '<' || c === '>') && t[i + 1] === '(') {
        flush(i);
        const end = Math.min(parenEnd(t, i + 1, b), b);
        out.push({
          type: 'ProcSubst',
          direction: c,
          body: this.nested(f, i + 2, Math.max(i + 2, end - 1), this.spanOf(f, i, end)),
          span: this.spanOf(f, i, end),
        });
        i = end;
        continue;
      }
      const exp = c === '$' || c === '`' ? this.expansion(f, i, b, false) : null;
      if (exp) {
        flush(i);
        out.push(exp.part);
        i = exp.end;
        continue;
      }
      if (runStart < 0) runStart = i;
      i++;
    }
    flush(b);
    return out;
  }

  private unquotedRun(f: Frame, a: number, b: number, atStart: boolean): WordPart[] {
    const parts = splitUnquoted(f.text.slice(a, b), 0, atStart);
    // Spans: splitUnquoted counts from 0; place them in the source.
    return parts.map((p) => ({ ...p, span: this.spanOf(f, a + p.span.start, a + p.span.end) }));
  }

  /** Inside double quotes (or an unquoted heredoc body, where `"` is literal). */
  private scanDouble(f: Frame, a: number, b: number, heredoc: boolean): WordPart[] {
    const t = f.text;
    const out: WordPart[] = [];
    let litStart = a;
    const flush = (i: number) => {
      if (i > litStart) out.push({ type: 'Literal', raw: t.slice(litStart, i), span: this.spanOf(f, litStart, i) });
    };
    let i = a;
    while (i < b) {
      const c = t[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      const exp = c === '$' || c === '`' ? this.expansion(f, i, b, !heredoc) : null;
      if (exp) {
        flush(i);
        out.push(exp.part);
        i = exp.end;
        litStart = i;
        continue;
      }
      i++;
    }
    flush(Math.min(i, b));
    return out;
  }

  /** `$…` or a backquote at i: the part and the index after it, or null for a literal `$`. */
  private expansion(f: Frame, i: number, b: number, inDq: boolean): { part: WordPart; end: number } | null {
    const t = f.text;
    if (t[i] === '`') {
      const end = Math.min(backtickEnd(t, i, b), b);
      return {
        part: { type: 'CmdSubst', backtick: true, body: this.backtickBody(f, i + 1, Math.max(i + 1, end - 1), inDq, this.spanOf(f, i, end)), span: this.spanOf(f, i, end) },
        end,
      };
    }
    const n = t[i + 1];
    if (n === '(') {
      if (t[i + 2] === '(') {
        const end = arithEnd(t, i, b);
        if (end > 0) {
          const span = this.spanOf(f, i, end);
          return { part: { type: 'ArithExp', raw: t.slice(i, end), inner: this.scanUnquoted(f, i + 3, end - 2, false).filter(isExpansion), span }, end };
        }
      }
      const end = Math.min(parenEnd(t, i + 1, b), b);
      const span = this.spanOf(f, i, end);
      return { part: { type: 'CmdSubst', backtick: false, body: this.nested(f, i + 2, Math.max(i + 2, end - 1), span), span }, end };
    }
    if (n === '{') {
      const end = Math.min(braceEnd(t, i, b), b);
      const raw = t.slice(i, end);
      const content = raw.slice(2, raw.endsWith('}') ? -1 : undefined);
      const m = /^[#!]([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])/.exec(content) ?? /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(content);
      const name = m ? m[1] : '';
      const restAt = i + 2 + (m ? m[0].length : 0);
      const inner = this.scanUnquoted(f, restAt, Math.max(restAt, end - 1), false);
      return {
        part: { type: 'ParamExp', name, plain: raw === `\${${name}}`, inner, raw, span: this.spanOf(f, i, end) },
        end,
      };
    }
    const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])/.exec(t.slice(i + 1, Math.min(b, i + 200)));
    if (!m) return null;
    const end = i + 1 + m[0].length;
    return { part: { type: 'ParamExp', name: m[0], plain: true, inner: [], raw: t.slice(i, end), span: this.spanOf(f, i, end) }, end };
  }

  /** A `$(…)` or `<(…)` body: parsed by bash-parser on its own. */
  private nested(f: Frame, a: number, b: number, span: Span): Script {
    const text = f.text.slice(a, b);
    return this.parseFrame(makeFrame(text, (i) => f.g(a + i)), span);
  }

  /** A backquote body: `\$`, `` \` ``, `\\` (and `\"` inside double quotes) lose the backslash. */
  private backtickBody(f: Frame, a: number, b: number, inDq: boolean, span: Span): Script {
    const t = f.text;
    let text = '';
    const map: number[] = [];
    for (let i = a; i < b; i++) {
      if (t[i] === '\\' && i + 1 < b && (t[i + 1] === '$' || t[i + 1] === '`' || t[i + 1] === '\\' || (inDq && t[i + 1] === '"'))) i++;
      text += t[i];
      map.push(i);
    }
    map.push(b);
    return this.parseFrame(makeFrame(text, (i) => f.g(map[Math.min(i, map.length - 1)])), span);
  }
}

function isExpansion(p: WordPart): boolean {
  return p.type === 'CmdSubst' || p.type === 'ProcSubst' || p.type === 'ParamExp' || p.type === 'ArithExp';
}

// ---------------------------------------------------------------------------------------------

/**
 * Parse with bash-parser and convert to shellgate's AST. Null when bash-parser cannot parse the
 * text (it rejects some valid bash: `|&`, `<<<`, `$'…'`, arrays, `function f {`, `2>&1 >f`, …).
 * `repairs`, when given, receives the adapter's corrections that this parse needed.
 */
export function parseWithBashParser(source: string, repairs?: Set<AdapterRepair>): Script | null {
  const bp = bashParser;
  if (!bp) throw new Error('bash-parser is not loaded: await loadBashParser() before parseWithBashParser()');
  const { text, heredocs, ampRedirects } = prepare(source);
  const converter = new Converter(source, new Map(heredocs.map((h) => [h.opStart, h])), ampRedirects, bp);
  const span = { start: 0, end: source.length };
  try {
    const script = converter.parseFrame(makeFrame(text, (i) => i), span);
    if (repairs) for (const r of converter.repairs) repairs.add(r);
    return script;
  } catch (e) {
    if (e instanceof ParseFailure) return null;
    throw e;
  }
}
