/**
 * Where zsh may read a text that bash parsed into this tree so that it does more than bash's
 * reading. zsh runs Claude Code's and Codex's commands on macOS; shellgate walks bash's tree, so a
 * text zsh runs is judged from it only where every construct means, in zsh with its default
 * options, the same thing as in bash or less. Like dash-reading.ts it is a whitelist over the node
 * kinds, with checks on the raw text around a node where zsh's meaning hangs on characters bash's
 * tree does not keep:
 *
 *   - glob qualifiers and alternation `*(e:…:)`, `(a|b)`, `***`: code and other matches;
 *   - parameter flags and forms `${(e)x}`, `${(P)x}`, `$~x`, `$=x`, `$^x`, `${x:h}`, `$x:h`,
 *     `$a[1]`: evaluation, indirection, globbing of values, history modifiers, arrays from 1;
 *   - `=cmd` and `=(cmd)` at the start of a word (EQUALS), `~name` (named directories), `<1-9>`;
 *   - a redirect alone (`< f` runs `$READNULLCMD`, a pager) and more than one output for a
 *     command (MULTIOS: `echo x > /dev/null | sh` sends the text to both);
 *   - assignments to the parameters zsh reads itself (`path`, `fpath`, `functions[…]`, `NULLCMD`…);
 *   - hook functions zsh calls by name (`precmd`, `zshexit`, `TRAPEXIT`…);
 *   - zsh's own builtins and reserved words (`setopt`, `emulate`, `zmodload`, `noglob`, `repeat`,
 *     `sched`…), and shared ones where zsh's meaning differs (`cd OLD NEW`, `alias -g`, `hash -d`,
 *     `typeset -T`, `echo` with a backslash, `enable`/`disable`, `fc`).
 *
 * What zsh does not do that bash does (split and glob unquoted values, run a failed glob) makes
 * it do less, not more.
 */
import type { Span } from './ast.js';
import type { NodeReading, Rewrite, ScannedNode } from './dialect-scan.js';

/** Builtins and reserved words of zsh that bash does not have (zsh 5.9, "Shell Builtin Commands" and "Reserved Words"). */
const ZSH_ONLY_COMMANDS = new Set(
  [
    '- autoload bindkey bye cap chdir clone comparguments compcall compctl compdescribe compfiles compgroups compquote',
    'comptags comptry compvalues echotc echoti emulate end float foreach functions getcap getln integer limit log',
    'nocorrect noglob print private pushln r rehash repeat sched setcap setopt suspend sysopen sysread sysseek syswrite',
    'syserror ttyctl unfunction unhash unlimit unsetopt vared whence where zcompile zformat zftp zle zmodload zparseopts',
    'zprof zpty zregexparse zselect zsocket zstyle zsystem ztcp ztie zuntie zstat zgetattr zsetattr zdelattr zlistattr',
    'strftime zgdbmpath zcurses zmathfunc',
  ]
    .join(' ')
    .split(' '),
);

/** bash's builtins zsh does not have (zsh 5.9): zsh runs a program of that name. */
const BASH_ONLY_BUILTINS = new Set(['bind', 'caller', 'compgen', 'complete', 'compopt', 'help', 'mapfile', 'readarray', 'shopt']);

/** Builtins both shells have, whose zsh meaning differs with some arguments: when any argument makes it so. */
const SHARED_BUILTIN_DIFFERS: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  // `cd OLD NEW` replaces OLD by NEW in $PWD; `cd -N`/`+N` go to the directory stack
  cd: (args) => args.length > 1 || args.some((a) => /^[+-]\d/.test(a)),
  pushd: (args) => args.length > 1 || args.some((a) => /^[+-]\d/.test(a)),
  popd: (args) => args.some((a) => /^[+-]\d/.test(a)),
  // global and suffix aliases: `alias -s txt=rm` runs rm for any word ending in .txt
  alias: (args) => args.some((a) => a.startsWith('-') || a.startsWith('+')),
  // `hash -d name=/dir` makes a named directory (`~name`)
  hash: (args) => args.length > 0,
  // `typeset -T VAR var` ties a scalar to an array (as PATH and path are)
  typeset: (args) => args.some((a) => /^[-+][A-Za-z]*T/.test(a)),
  declare: (args) => args.some((a) => /^[-+][A-Za-z]*T/.test(a)),
  local: (args) => args.some((a) => /^[-+][A-Za-z]*T/.test(a)),
  export: (args) => args.some((a) => /^[-+][A-Za-z]*T/.test(a)),
  readonly: (args) => args.some((a) => /^[-+][A-Za-z]*T/.test(a)),
  // `disable -r if` turns reserved words off; `enable` turns builtins and modules' features on
  enable: () => true,
  disable: () => true,
  // re-runs commands from the history (`history` is `fc -l`, which only lists)
  fc: () => true,
};
// zsh's echo decodes backslash escapes as dash's does; the walker never follows echo text that
// holds a backslash into a shell or a file it runs (walk/printed-text.ts), in any shell.

/**
 * Parameters zsh reads or sets itself beyond bash's (the manual's "Parameters Set By The Shell"
 * and "Parameters Used By The Shell", and the zsh/parameter module's arrays): assigning one
 * changes zsh's behaviour (`path=(/tmp/x $path)` moves PATH, `functions[ls]=…` defines ls).
 * Upper-case names bash also reads are judged by the bash reading already.
 */
const ZSH_SPECIAL_PARAMETERS = new Set(
  [
    'argv status pipestatus signals cdpath fignore fpath histchars mailpath manpath module_path path psvar watch',
    'zle_bracketed_paste zle_highlight options commands functions dis_functions functions_source builtins dis_builtins',
    'reswords dis_reswords patchars dis_patchars aliases dis_aliases galiases dis_galiases saliases dis_saliases',
    'parameters modules dirstack history historywords jobdirs jobtexts jobstates nameddirs userdirs usergroups',
    'funcfiletrace funcsourcetrace funcstack functrace zsh_eval_context zsh_scheduled_events',
    'ARGC ARGV0 CORRECT_IGNORE CORRECT_IGNORE_FILE DIRSTACKSIZE FIGNORE FPATH HISTCHARS HISTORY_IGNORE KEYBOARD_HACK',
    'KEYTIMEOUT LISTMAX MANPATH MODULE_PATH NULLCMD PERIOD POSTEDIT PROMPT PROMPT2 PROMPT3 PROMPT4 PSVAR READNULLCMD',
    'REPORTMEMORY REPORTTIME RPROMPT RPS1 RPROMPT2 RPS2 SAVEHIST SPROMPT STTY TIMEFMT TMOUT TMPPREFIX TMPSUFFIX WATCH',
    'WATCHFMT WORDCHARS ZBEEP ZDOTDIR ZLE_LINE_ABORTED ZLE_REMOVE_SUFFIX_CHARS ZLE_SPACE_SUFFIX_CHARS ZLE_RPROMPT_INDENT',
  ]
    .join(' ')
    .split(' '),
);

/** Words before the command that run it as a builtin or program. */
const PRECOMMANDS = new Set(['builtin', 'command', 'exec']);

/** Functions zsh calls by name: hooks, signal traps, the not-found handler. */
const HOOK_FUNCTION = /^(?:precmd|preexec|chpwd|periodic|zshexit|zshaddhistory|command_not_found_handler|TRAP[A-Z0-9]+)$/;

/** `$x:h`, `$x:s/a/b/`: a history modifier after an unbraced parameter. */
const MODIFIER_AFTER = /^:[aAceghlpPqQrstuwWx&]/;

type WordNode = { raw: string; parts: ScannedNode[]; span: Span };
type RedirectNode = { op: string; fd: number | null; span: Span };

/**
 * What zsh reads differently in this one node (its children are read on their own): null for the
 * same, a construct to ask about, or bash text that says what zsh does.
 */
export function readsAsZsh(node: ScannedNode, text: string): NodeReading {
  const span = node.span as Span;
  const at = (prefix: string, from = span.start): boolean => text.startsWith(prefix, from);
  switch (node.type) {
    case 'Word': {
      const raw = String(node.raw);
      // EQUALS: `=ls` is the path of ls, `=(cmd)` a file holding cmd's output (`==` fails in zsh)
      if (/^=[^=\s]/.test(raw)) return '`=cmd` (a word starting with `=`)';
      return null;
    }
    case 'Literal':
      // `$~x`, `$=x`, `$^x`, `$+x`: bash leaves them as text, zsh globs, splits or tests the value
      return /\$[~=^+]/.test(String(node.raw)) ? `\`${String(node.raw).slice(0, 12)}\`` : null;
    case 'SingleQuoted':
    case 'AnsiC':
    case 'CmdSubst':
    case 'ProcSubst':
    case 'ArithExp':
      return null;
    // zsh keeps the empty words of a brace expansion (`git -C {,push} status` runs
    // `git -C '' push status`); bash drops them
    case 'Brace':
      return /[{,](?=[,}])/.test(String(node.raw)) ? 'a brace expansion with an empty word (zsh keeps it)' : null;
    case 'DoubleQuoted':
      // zsh has no `$"…"`: the `$` stays
      return at('$') || text[span.start - 1] === '$' ? '`$"…"`' : null;
    case 'ParamExp': {
      const raw = String(node.raw);
      // flags, glob and split switches, `${x:h}` modifiers, subscripts (arrays count from 1), `${!x}`
      if (/^\$\{[(~=^+!]/.test(raw)) return `\`${raw.slice(0, 12)}\``;
      if (raw.includes('[')) return 'an array subscript (zsh counts from 1)';
      if (/^\$\{[^}]*?:[a-zA-Z&]/.test(raw) && !/^\$\{[A-Za-z_][A-Za-z0-9_]*:[-=?+]/.test(raw)) return `\`${raw.slice(0, 12)}\` (a modifier)`;
      if (!raw.startsWith('${') && MODIFIER_AFTER.test(text.slice(span.end, span.end + 2)))
        return `\`${raw}${text.slice(span.end, span.end + 2)}\` (a modifier)`;
      // `$a[1]` is an element in zsh, `$a` then a glob in bash
      if (!raw.startsWith('${') && text[span.end] === '[') return 'an array subscript (zsh counts from 1)';
      return null;
    }
    case 'Glob': {
      const raw = String(node.raw);
      if (raw.includes('(')) return 'a glob qualifier or alternation `(…)`';
      if (raw.includes('***')) return '`***` (follows links)';
      return null;
    }
    case 'Tilde':
      // `~name` is a named directory: `hash -d` or any parameter holding an absolute path
      return node.user !== '' && node.user !== '+' && node.user !== '-' ? `\`~${String(node.user)}\`` : null;
    case 'Redirect': {
      // `<1-10>` is a numeric glob in zsh; bash reads a redirect
      if (node.op === '<' && /^<\s*\d*-\d*>/.test(text.slice(span.start))) return 'a numeric glob `<N-M>`';
      return at('>!') || text.slice(span.start, span.end).includes('>!') ? '`>!`' : null;
    }
    case 'Assignment': {
      const name = String(node.name);
      if (ZSH_SPECIAL_PARAMETERS.has(name)) return `assigning \`${name}\`, which zsh reads itself`;
      if ((node.subscript as unknown[]).length > 0 || text.slice(span.start, span.start + name.length + 1) === `${name}[`)
        return 'an array subscript (zsh counts from 1)';
      return null;
    }
    case 'SimpleCommand':
      return simpleCommand(node, text);
    case 'Pipeline': {
      const commands = node.commands as ScannedNode[];
      // MULTIOS: a stage's output redirected to a file still also goes down the pipe
      for (let i = 0; i < commands.length - 1; i++) if (outputs(commands[i]) > 0) return 'an output redirect in a pipeline (MULTIOS)';
      return null;
    }
    // zsh calls a hook function itself (at exit, on a signal, when a command is not found): its
    // body is walked as if called where it is defined, and asks all the same.
    case 'FunctionDef':
      return HOOK_FUNCTION.test(String(node.name))
        ? { append: `; ${String(node.name)}`, ask: `a function \`${String(node.name)}\`, which zsh calls itself` }
        : null;
    case 'List':
    case 'Subshell':
    case 'Group':
    case 'If':
    case 'While':
    case 'For':
    case 'Case':
    case 'TestCommand':
    case 'ArithCommand':
    case 'ArithFor':
    case 'Unparsed':
    case 'Script':
      return outputs(node) > 1 ? 'more than one output redirect (MULTIOS)' : null;
    default:
      return `\`${String(node.type)}\``;
  }
}

function simpleCommand(node: ScannedNode, text: string): NodeReading {
  const words = node.words as WordNode[];
  const redirects = node.redirects as RedirectNode[];
  const assignments = node.assignments as unknown[];
  // `< file` alone runs $READNULLCMD (a pager) on it, `> file` alone runs $NULLCMD (cat)
  if (words.length === 0 && assignments.length === 0 && redirects.some((r) => !r.op.startsWith('<<'))) return 'a redirect with no command';
  if (outputs(node) > 1) return 'more than one output redirect (MULTIOS)';
  if (inputs(node) > 1) return 'more than one input redirect (MULTIOS)';
  // the name a precommand modifier runs counts too (`builtin setopt`, `command zmodload`)
  let i = 0;
  const edits: Rewrite[] = [];
  while (i < words.length - 1 && (PRECOMMANDS.has(words[i].raw) || GLOB_MODIFIERS.has(words[i].raw))) {
    // `noglob cmd` runs cmd with its words not globbed: walked as `cmd` with them globbed, which
    // is more. A modifier after another precommand stays (and asks below).
    if (GLOB_MODIFIERS.has(words[i].raw)) {
      if (i > 0 && !GLOB_MODIFIERS.has(words[i - 1].raw)) return `\`${words[i].raw}\`, a zsh precommand modifier`;
      edits.push({ span: words[i].span, by: '' });
      i++;
      continue;
    }
    i++;
    while (i < words.length - 1 && words[i].raw.startsWith('-')) i++;
  }
  const first = words[i];
  // `print` is the builtin unless `command` or `exec` runs a program of that name (mailcap has one)
  const builtin = words.slice(0, i).every((w) => w.raw === 'builtin' || GLOB_MODIFIERS.has(w.raw));
  if (builtin && first?.raw === 'print' && first.parts.length === 1 && first.parts[0].type === 'Literal') {
    const echo = printAsEcho(words.slice(i));
    return echo === null ? '`print` with these words' : { edits: [...edits, echo] };
  }
  const asEval = emulateAsEval(words.slice(i));
  if (asEval !== null) return { edits: [...edits, asEval], ask: '`emulate`, which runs its code with other options' };
  return simpleCommandName(words.slice(i), text) ?? (edits.length > 0 ? { edits } : null);
}

/**
 * `emulate [-LR] MODE -c CODE` runs CODE with MODE's options: the words up to `-c` rewritten to
 * `eval`, so the code is walked (as zsh reads it: an eval's text is read by the same shell). It
 * asks all the same, since the options change how the code reads. Null for any other form.
 */
function emulateAsEval(words: WordNode[]): Rewrite | null {
  if (words[0]?.raw !== 'emulate') return null;
  const c = words.findIndex((w) => w.raw === '-c');
  if (c < 2 || c === words.length - 1 || !words.slice(1, c).every((w) => /^(?:-[LR]+|zsh|sh|ksh|csh)$/.test(w.raw))) return null;
  return { span: { start: words[0].span.start, end: words[c].span.end }, by: 'eval' };
}

function simpleCommandName(words: WordNode[], text: string): string | null {
  const first = words[0];
  // `{a,b}` first in a command: zsh reads `{` as a group's opening, and runs another name
  if (first?.parts[0]?.type === 'Brace') return 'a brace expansion first in a command (zsh opens a group there)';
  // zsh's `time` is a reserved word with no options: `time -p cmd` runs a program `-p`
  if (first?.raw === 'time' && words[1]?.raw.startsWith('-')) return "`time` with an option (zsh's takes none)";
  // zsh does not split an unquoted parameter: `x='wc -l'; $x f` looks up a program named `wc -l`
  if (first?.parts.some((p) => p.type === 'ParamExp')) return 'an unquoted parameter as the command name (zsh does not split it)';
  if (first === undefined || first.parts.length !== 1 || first.parts[0].type !== 'Literal') return null;
  const name = first.raw;
  if (ZSH_ONLY_COMMANDS.has(name)) return `\`${name}\`, a zsh builtin`;
  if (BASH_ONLY_BUILTINS.has(name)) return `\`${name}\`, which is no builtin in zsh (a program of that name in PATH runs)`;
  const differ = SHARED_BUILTIN_DIFFERS[name];
  if (differ?.(words.slice(1).map((w) => text.slice(w.span.start, w.span.end)))) return `\`${name}\` with these arguments`;
  return null;
}

/** Precommand modifiers that only turn globbing or spelling correction off for the command. */
const GLOB_MODIFIERS = new Set(['noglob', 'nocorrect']);

/** `print`'s options that only choose how the words are printed to stdout (not -u, -s, -z, -v, -p, -f, -P, -m…). */
const PRINT_OPTIONS = /^-[rnlNcaoOiDeER]+$/;

/**
 * `print …` (from `print`, a literal word) as the rewrite to `echo -n …`: both print their words
 * and read nothing, and `-n` keeps the walker from following the text as if it were known (print
 * separates by newlines with -l, sorts with -o…). zsh takes options from the words after
 * expansion, so a word after the options must not be one: a literal not starting with `-`, or a
 * glob starting with a literal character other than `-`, or one holding a `.` or `/` (print stops
 * at that bad option before doing anything); anything goes after `-` or `--`. Null otherwise.
 */
function printAsEcho(words: WordNode[]): Rewrite | null {
  let i = 1;
  while (i < words.length && PRINT_OPTIONS.test(words[i].raw) && words[i].parts.length === 1 && words[i].parts[0].type === 'Literal') i++;
  let last = words[i - 1];
  if (i < words.length && (words[i].raw === '-' || words[i].raw === '--')) last = words[i];
  else {
    for (const w of words.slice(i)) {
      const kinds = w.parts.map((p) => p.type);
      const literal = kinds.every((k) => k === 'Literal' || k === 'SingleQuoted' || k === 'DoubleQuoted') && !w.raw.startsWith('-');
      const glob = kinds.every((k) => k === 'Literal' || k === 'Glob') && (/^[^-*?[]/.test(w.raw) || (!w.raw.includes('[') && /[./]/.test(w.raw)));
      const plain =
        kinds.every((k) => k !== 'DoubleQuoted') ||
        w.parts.every((p) => p.type !== 'DoubleQuoted' || (p.parts as ScannedNode[]).every((q) => q.type === 'Literal'));
      if (!(literal && plain) && !glob) return null;
    }
  }
  return { span: { start: words[0].span.start, end: last.span.end }, by: 'echo -n' };
}

/** Output redirects of one command (its own, not those of commands inside it). */
function outputs(node: ScannedNode): number {
  const redirects = (node.redirects as RedirectNode[] | undefined) ?? [];
  return redirects.filter((r) => /^(?:>|>>|>\||&>|&>>)$/.test(r.op) && (r.fd === null || r.fd === 1)).length;
}

function inputs(node: ScannedNode): number {
  const redirects = (node.redirects as RedirectNode[] | undefined) ?? [];
  return redirects.filter((r) => r.op === '<' && (r.fd === null || r.fd === 0)).length;
}
