/**
 * The core findings: the single source of what each finding means. Stable ids, their category and
 * level, a message that teaches, and the properties other layers act on (an allow rule cannot lift
 * it, auto-edit approves it as an edit, auto mode passes it as read-only…), so no other file keeps
 * its own list of ids. Guard rules (rules/builtin/) add their own ids; these are the analyser's
 * and the gate's. Every id either emits is here, and every example produces its finding
 * (test/findings/catalog.test.ts checks both).
 */
import type { Level } from './types.js';

/**
 * A way to produce the finding: a shell command (analysed with the default options), a shell
 * command with analyser options (`parser`, `maxInputLength`), or a non-shell tool call. Examples
 * run in a workspace `/ws/project` with home `/home/user`.
 */
export type FindingExample =
  string | { command: string; options: Readonly<Record<string, unknown>> } | { tool: string; args: Readonly<Record<string, unknown>> };

/**
 * A message template with `{detail}` filled in. The detail is inserted verbatim: it is often shell
 * text, and `String.replace` with a string would read its `$'`, `$&` or `` $` `` as patterns.
 */
export function fillDetail(template: string, detail: string): string {
  return template.replace('{detail}', () => detail);
}

export interface FindingMeta {
  category: string;
  level: Level;
  /** `{detail}` is replaced by what the finding is about (a path, a program, a host). */
  message: string;
  /** Why it matters, for `shellgate rules ID` and `explain`: what is at stake and what shellgate does about it. */
  rationale: string;
  /** A safer way to get the same work done, told to the agent with the decision (optional). */
  safer?: string;
  /** Commands or tool calls that produce it (test/findings/catalog.test.ts runs them all). */
  examples: readonly FindingExample[];
  /** Why `examples` is empty: no ordinary input is meant to produce it. */
  noExample?: string;
  /**
   * An allow rule never lifts it: the rule's pattern sees the argv, not the trick around it
   * (`GIT_PAGER=…`, `$((…))`, a CR, a parse bash may read otherwise).
   */
  unliftable?: true;
  /** A change inside the workspace that auto-edit mode approves as an edit. */
  edit?: true;
  /**
   * It says nothing about changing or running anything: a call of a read-only tool, or a shell
   * call, whose every asking finding is read-only passes auto mode's safe-tool step.
   */
  readOnly?: true;
  /** It only describes the command's structure; option `chaining: 'ask'` raises it to ask. */
  structure?: true;
}

/** The properties a finding can have, by name. */
export type FindingFlag = 'unliftable' | 'edit' | 'readOnly' | 'structure';

export const CORE_FINDINGS = {
  'parse-error': {
    category: 'parse',
    level: 'ask',
    message: 'bash cannot parse {detail}, so what would run cannot be known',
    rationale:
      'shellgate judges what bash would run. Where bash would reject the text or read it otherwise (an unclosed quote, a stray `)`, a missing `done`), the commands cannot be listed for sure, so nothing is allowed. The parser goes on after the token bash stopped at, and the pieces between separators are analysed on their own too, so a command hidden after the broken part counts.',
    safer: 'fix the quoting so the whole command parses, or split it into separate, simpler calls',
    unliftable: true,
    examples: ["echo 'unclosed"],
  },
  'unsupported-syntax': {
    category: 'parse',
    level: 'ask',
    message: 'shellgate does not model this construct ({detail}); it is not checked',
    rationale: 'A few bash constructs are not modelled. Rather than assume they are harmless, shellgate asks.',
    safer: 'write the same thing with plain commands, pipes and `&&`',
    examples: [],
    noExample: "shellgate's own parser models every construct; only the optional tree-sitter front end can meet a node it does not convert",
  },
  'internal-error': {
    category: 'internal',
    level: 'ask',
    message: 'shellgate failed on this input ({detail}); it asks rather than guess — please report it',
    rationale: 'A failure inside shellgate never turns into an allow: the call asks, and the message says what failed so it can be reported.',
    unliftable: true,
    examples: [],
    noExample: 'no input is meant to produce it: it is the fallback when shellgate itself fails',
  },
  'parser-disagreement': {
    category: 'parse',
    level: 'ask',
    message: 'another bash parser reads this command differently ({detail}); what runs is uncertain',
    rationale:
      "With `parser: 'consensus'` the command is also parsed by tree-sitter-bash and by bash-parser. Where either sees other commands, words or operators than shellgate's own parser, the text reads more than one way, and a parser quirk is how a command slips past a checker: a second opinion turns it into a question.",
    safer: 'write the command without unusual quoting or escapes so it reads one way only',
    examples: [{ command: '$ npm test', options: { parser: 'consensus' } }],
  },
  'parse-doubt': {
    category: 'parse',
    level: 'ask',
    message: "bash may read {detail} differently from shellgate's parser; every reading was checked, and what runs is uncertain",
    rationale:
      "With `parser: 'tree-sitter'`, tree-sitter parsed the text, but bash's own rules may end a `${…}`, a heredoc or a quoted word somewhere else. Every plausible reading was checked, yet which one bash runs is unknown, and an allow rule cannot vouch for it.",
    safer: 'quote words plainly and do not nest quotes or braces inside `${…}`',
    unliftable: true,
    examples: [{ command: "echo ${x:1:'$(rm -rf ~)'}", options: { parser: 'tree-sitter' } }],
  },
  'expansion-limit': {
    category: 'limit',
    level: 'ask',
    message: 'an expansion goes past what shellgate follows ({detail}); the rest is not checked',
    rationale:
      'Brace expansions, xargs input and parallel jobs can multiply into more commands than shellgate follows. What lies past the limit is not judged as if it were not there.',
    safer: 'run the command on the specific items it needs, or in smaller batches',
    unliftable: true,
    examples: ['echo {1..100000}'],
  },
  'depth-limit': {
    category: 'limit',
    level: 'ask',
    message: 'nesting deeper than shellgate follows ({detail}); what is inside is not checked',
    rationale: 'Scripts inside scripts (`sh -c "sh -c …"`, eval, source) and deep nesting are followed to a limit; what is deeper is not checked.',
    safer: 'run the inner command directly instead of wrapping it in sh -c or eval',
    unliftable: true,
    examples: ['eval eval eval eval eval eval eval eval eval eval ls'],
  },
  'input-limit': {
    category: 'limit',
    level: 'ask',
    message: 'input past the analysis limit ({detail}) is not checked',
    rationale: 'Input past `maxInputLength` (or findings past the listing limit) is not analysed, so the call cannot be allowed.',
    safer: 'run the work as separate, shorter commands',
    unliftable: true,
    examples: [{ command: 'echo hello world and more', options: { maxInputLength: 10 } }],
  },
  'dynamic-command': {
    category: 'dynamic',
    level: 'ask',
    message: 'the program name {detail} is only known at run time, so the command that runs cannot be checked',
    rationale:
      'When the program name comes from a variable, a substitution or a glob (`$x`, `$(…)`, `/???/r?`), which program runs is only known at run time; rules that name programs cannot see it.',
    safer: 'call the program by its literal name',
    unliftable: true,
    examples: ['$x foo'],
  },
  'dynamic-script': {
    category: 'dynamic',
    level: 'ask',
    message: 'a command string built at run time is executed ({detail}); its content cannot be checked',
    rationale: '`eval` and `sh -c` run a string as code. When that string is built at run time, the commands in it cannot be read before they run.',
    safer: 'run the commands directly instead of building a string for eval or sh -c',
    unliftable: true,
    examples: ['eval "$x"'],
  },
  'dynamic-path': {
    category: 'dynamic',
    level: 'ask',
    message: 'a path is only known at run time ({detail}); what it touches cannot be checked',
    rationale:
      'A path spelt with a variable or a substitution is only known at run time, so whether it stays inside the workspace, or touches a key or a system file, cannot be checked.',
    safer: 'name the file literally instead of through a variable or a substitution',
    examples: ['cat "$f"'],
  },
  'split-names': {
    category: 'dynamic',
    level: 'ask',
    message:
      'file names are split into words ({detail}): a name holding a blank or a newline becomes several paths, any of which may lie outside the workspace',
    rationale:
      'find, grep -l, fd and ls print names as they are. Split at blanks or newlines, a directory named `a ` holding `etc/passwd` gives the word `/etc/passwd`: what the command then touches depends on names an attacker can create. NUL separation keeps one name per item, and git escapes newlines in the names it prints.',
    safer: "separate the names by NUL: `find … -print0 | xargs -0 …`, `git ls-files -z | xargs -0 …`, `rg --files -0`, or `git ls-files | xargs -d '\\n' …`",
    // (In the examples' workspace, which does not exist, no name holds a blank: a line that makes names first, or a split at another character.)
    examples: ["touch 'a /etc/passwd'; find . -name passwd | xargs cat", 'find . | xargs -d , cat'],
  },
  'arithmetic-injection': {
    category: 'dynamic',
    level: 'ask',
    message: 'an unknown value is evaluated as arithmetic ({detail}); bash runs `$(…)` hidden in such values (a[$(cmd)])',
    rationale:
      'bash evaluates array subscripts and `$((…))` recursively: a value such as `a[$(cmd)]` runs `cmd`. An unknown value evaluated as arithmetic is code the command does not show.',
    safer: 'use a literal number, or check the value is digits before using it in arithmetic',
    unliftable: true,
    examples: ['echo ${a[$i]}'],
  },
  'prompt-expansion': {
    category: 'dynamic',
    level: 'ask',
    message: '{detail} expands a value as a prompt string, which can run command substitutions inside it',
    rationale: '`${x@P}`, and PS1/PS4 when shown, expand a value as a prompt string, which runs command substitutions inside it.',
    safer: "print the value with printf '%s' instead of expanding it as a prompt",
    unliftable: true,
    examples: ['echo "${x@P}"'],
  },
  'zsh-expansion': {
    category: 'dynamic',
    level: 'ask',
    message: 'zsh would expand {detail} to a program path; the word means different things in bash and zsh',
    rationale:
      "In zsh a word starting with `=` expands to a program's path (`=ls` → /bin/ls); in bash it is a plain word. The same text means different commands in the two shells.",
    safer: "write the program's name or full path instead of `=name`",
    unliftable: true,
    examples: ['echo =ls'],
  },
  'control-character': {
    category: 'parse',
    level: 'ask',
    message: 'the command holds {detail}; shells, parsers and terminals read such characters differently',
    rationale:
      'Control and invisible characters (a carriage return, an escape, a zero-width or direction-changing character) are read differently by bash, parsers and terminals: what the user sees is not what runs.',
    safer: 'retype the command in plain text, without control or invisible characters',
    unliftable: true,
    examples: ['echo a\rb'],
  },
  'line-continuation': {
    category: 'parse',
    level: 'ask',
    message: 'a backslash-newline splits a word ({detail}); bash joins it before reading, so the word is not what it looks like',
    rationale:
      'bash removes a backslash-newline before it reads words, so `r\\⏎m` is `rm`. A rule or a reader that takes the text as written sees another word.',
    safer: 'write each word on one line; break lines only between words',
    unliftable: true,
    examples: ['r\\\nm notes.txt'],
  },
  'secret-variable': {
    category: 'exfiltration',
    level: 'ask',
    message: 'expands {detail}, a variable of the environment that may hold a secret; its value would be shown or sent',
    rationale:
      "Expanding an environment variable prints or sends its value, and output goes into the agent's context and logs. Any name may hold a secret (DB_PASS, GH_PAT, X): only variables known to hold none (HOME, PATH, PWD, bash's own…) and the ones the line assigns itself are expanded without asking.",
    safer: 'check that the variable is set without expanding it (`[[ -v VAR ]]`), or print a variable known to hold no secret',
    examples: ['printenv GITHUB_TOKEN'],
  },
  'env-dump': {
    category: 'exfiltration',
    level: 'ask',
    message: '{detail} prints the whole environment, secrets included',
    rationale: "`env`, `printenv` or `set` with no argument print every variable, tokens and keys included, into the agent's context and logs.",
    safer: 'print only the variables the task needs (printenv PATH)',
    examples: ['env'],
  },
  'unknown-command': {
    category: 'unknown',
    level: 'ask',
    message: 'shellgate has no description of {detail}; an unknown program could do anything',
    rationale:
      'shellgate reads commands through descriptions of each program (rules/programs/). For a program it has no description of, it cannot tell what the arguments do, so it asks.',
    examples: ['frobnicate --now'],
  },
  'named-option': {
    category: 'policy',
    level: 'allow',
    message: '{detail}: an allow rule covers this only if it names the option; a `*` does not stand for it',
    rationale:
      'An allow rule with a `*` (`Bash(find:*)`, `Bash(git commit *)`) speaks for the ordinary forms of a program. Options that change what the program is — find -delete or -exec, git commit --no-verify — are covered only by a rule that names them, so a broad rule never allows them by accident.',
    examples: ['find . -name x -delete'],
  },
  'unknown-option': {
    category: 'unknown',
    level: 'ask',
    message: '{detail}; what the option does is unknown, so it is not taken as harmless',
    rationale:
      "An option the program's description does not list is never taken as a harmless flag: options change what programs read, write and run (`--output`, `--exec`, `-delete`). A word only known at run time where an option may stand could expand to any option.",
    safer: "spell the option as the program's documentation lists it, or leave it out",
    examples: ['ls --frobnicate'],
  },
  'repo-code': {
    category: 'exec',
    level: 'ask',
    message: '{detail} can run a program that configuration it loads names',
    rationale:
      'Commands that look read-only run programs their configuration names: `git status` runs `core.fsmonitor` from .git/config, `git log` a pager, `cargo metadata` a rustc wrapper. A cloned repository chooses that configuration.',
    safer: 'read the files directly (cat, grep) or review the named setting before running the command',
    unliftable: true,
    examples: ['git -C "$D" status'],
  },
  'exec-config': {
    category: 'exec',
    level: 'ask',
    message:
      'writes {detail}, a file that changes what later commands run when they load it (git config and hooks, tool settings); edit modes do not approve it',
    rationale:
      'Some files are code in disguise: git config and hooks, .envrc, .npmrc, .cargo/config.toml decide what later commands run. A write to them plants code that runs outside this call, so edit modes do not approve it.',
    safer: 'leave the file as it is and tell the user what to change in it',
    examples: ['echo x >> .git/config', { tool: 'write_file', args: { path: '/ws/project/.git/config' } }],
  },
  'unknown-effect': {
    category: 'unknown',
    level: 'ask',
    message: '{detail} runs code or has effects that depend on its input',
    rationale:
      'Build tools and interpreters (`make`, `python x.py`, `npm run`) run code whose effect depends on files shellgate does not execute, so the effect cannot be known in advance.',
    examples: ['ip -b ./cmds'],
  },
  'stdin-exec': {
    category: 'exec',
    level: 'ask',
    message: '{detail} executes program text read from its input',
    rationale: 'A shell or interpreter reading its program from stdin (`… | sh`, `python -`) runs text that is not on the command line and cannot be checked.',
    safer: 'save the script to a file, show it, then run the file',
    examples: ['sh < script.sh'],
  },
  write: {
    category: 'write',
    level: 'ask',
    message: 'writes {detail}',
    rationale: 'Writing changes files. Read-only work in the workspace is allowed; a write asks unless a rule or a mode (auto-edit) approves it.',
    edit: true,
    examples: ['touch notes.txt', { tool: 'write_file', args: { path: '/ws/project/notes.txt' } }],
  },
  'state-change': {
    category: 'write',
    level: 'ask',
    message: '{detail} changes files or state',
    rationale: "The program's description says it changes files or state (a package install, a git commit), even when no single path says where.",
    edit: true,
    examples: ['git stash'],
  },
  delete: {
    category: 'delete',
    level: 'ask',
    message: 'deletes {detail}',
    rationale:
      'Deleting cannot be undone by the agent. It asks unless a rule approves it, and the guard rules deny the deletes that destroy a system or a home directory.',
    examples: ['rm notes.txt'],
  },
  exec: {
    category: 'exec',
    level: 'ask',
    message: 'executes {detail}',
    rationale: 'The command runs another program or a script file, whose own effect is not visible in this command.',
    examples: ['./build.sh'],
  },
  network: {
    category: 'network',
    level: 'ask',
    message: 'talks to the network ({detail})',
    rationale: 'Talking to the network can download code or send data out of the machine.',
    examples: ['curl https://example.com', { tool: 'web_fetch', args: { url: 'https://example.com' } }],
  },
  privilege: {
    category: 'privilege',
    level: 'ask',
    message: 'runs with raised privileges ({detail})',
    rationale: 'sudo, doas, su and friends run the command with raised privileges, past every file permission that would otherwise stop a mistake.',
    safer: 'run the command without sudo; if it really needs root, ask the user to run it',
    examples: ['sudo ls'],
  },
  process: {
    category: 'process',
    level: 'ask',
    message: 'signals or controls processes ({detail})',
    rationale: 'Signalling or controlling processes can stop work the user depends on (an editor, a database, the agent itself).',
    safer: 'stop only the process the task started, by its PID',
    examples: ['kill 1234'],
  },
  system: {
    category: 'system',
    level: 'ask',
    message: 'changes system state ({detail})',
    rationale: "The command changes the system's configuration or services (mounts, services, the clock, schedulers), beyond the workspace.",
    examples: ['mount /dev/sdb1 /mnt'],
  },
  'env-hijack': {
    category: 'env',
    level: 'ask',
    message: 'sets {detail}, which changes what later commands run or load',
    rationale:
      'Variables such as PATH, LD_PRELOAD, GIT_SSH_COMMAND or PYTHONPATH decide which code a program loads or runs. Only variables known to be inert (LANG, TZ, NO_COLOR…) are taken as harmless.',
    safer: 'pass the setting as a command-line option instead of an environment variable',
    unliftable: true,
    examples: ['export LD_PRELOAD=/tmp/x.so'],
  },
  'outside-workspace': {
    category: 'outside-workspace',
    level: 'ask',
    message: 'reaches outside the workspace: {detail}',
    rationale:
      "Work inside the workspace roots and temp dirs is what the user opened the agent for; paths outside it are the user's other projects, home files and the system.",
    safer: 'work on a copy inside the workspace, or ask the user to add the directory to additionalDirectories',
    readOnly: true,
    examples: ['cat /etc/hosts'],
  },
  'sensitive-path': {
    category: 'sensitive',
    level: 'ask',
    message: 'touches a sensitive file (credentials, keys, shell or agent settings): {detail}',
    rationale:
      "Keys, credentials, shell start-up files, agent settings and .env files give access to other systems or run code at the next login; reading one puts secrets into the agent's context, writing one plants code.",
    safer: 'read only the files the task needs inside the workspace; ask the user to provide credentials through the environment',
    examples: ['cat ~/.ssh/id_rsa', { tool: 'read_file', args: { path: '/home/user/.ssh/id_rsa' } }],
  },
  remote: {
    category: 'remote',
    level: 'ask',
    message: 'runs on another host ({detail})',
    rationale:
      '`ssh host CMD` runs the command on another machine, outside this workspace and this policy; its commands are analysed, but their paths are on that host.',
    safer: 'run the command locally, or ask the user to run it on the host',
    examples: ['ssh host ls'],
  },
  chaining: {
    category: 'chaining',
    level: 'allow',
    message: 'several commands are chained ({detail}); each is checked on its own',
    rationale:
      "Commands joined with `;`, `&&`, `||` or `|` are each checked on their own; the chaining itself is only noted (option `chaining: 'ask'` makes it ask).",
    readOnly: true,
    structure: true,
    examples: ['ls; pwd'],
  },
  substitution: {
    category: 'substitution',
    level: 'allow',
    message: 'a substitution runs a command ({detail}); it is checked too',
    rationale: 'A `$(…)`, backtick or `<(…)` runs a command whose output becomes part of another; the inner command is checked too.',
    readOnly: true,
    structure: true,
    examples: ['echo $(pwd)'],
  },
  redirect: {
    category: 'redirect',
    level: 'allow',
    message: 'redirects {detail}',
    rationale: 'A redirect reads or writes a file; the file is checked like any other path.',
    edit: true,
    readOnly: true,
    structure: true,
    examples: ['echo hi > out.txt'],
  },
  background: {
    category: 'background',
    level: 'allow',
    message: '{detail} runs in the background',
    rationale: 'A command run with `&` keeps running after the call returns; it is checked like any other.',
    readOnly: true,
    structure: true,
    examples: ['sleep 1 &'],
  },
  // The gate's own findings about non-shell tool calls (policy/tool-calls.ts).
  'tool-arguments': {
    category: 'input',
    level: 'ask',
    message: '{detail}; what it would touch cannot be checked',
    rationale: 'A tool call whose expected arguments are missing or of the wrong type cannot be read: what it would touch is unknown, so it is never allowed.',
    safer: 'call the tool again with every required argument given as a string (for example file_path)',
    examples: [{ tool: 'read_file', args: {} }],
  },
  'unknown-tool': {
    category: 'unknown',
    level: 'ask',
    message: '{detail} is a tool shellgate cannot see into; a person should decide',
    rationale:
      "A tool shellgate has no description of (an MCP server's tool, an agent tool it does not know) cannot be seen into; a person decides, unless a settings rule names the tool.",
    examples: [{ tool: 'SomethingNew', args: {} }],
  },
  'shell-option': {
    category: 'dynamic',
    level: 'ask',
    message: '{detail} changes how bash reads or runs what follows, which shellgate does not follow',
    rationale:
      'Shell options change what later commands do: `set -o posix` keeps assignments made before special builtins, `set -k` turns later `NAME=value` words into environment, `shopt -s lastpipe` runs the last pipeline stage in this shell, `cdable_vars` lets `cd NAME` go to $NAME. Only options known to be inert for the analysis (errexit, nounset, pipefail, xtrace, the glob options…) pass; any other one makes the state after it unknown.',
    safer: 'leave the shell options at their defaults, or run the commands in a script file reviewed on its own',
    unliftable: true,
    examples: ['set -o posix; ls', 'shopt -s lastpipe; ls'],
  },
  'special-variable': {
    category: 'dynamic',
    level: 'ask',
    message: 'assigning {detail} changes how bash behaves, which shellgate does not follow',
    rationale:
      'bash reads some variables itself: `BASH_ALIASES[ls]=…` defines an alias, `BASH_CMDS[ls]=…` decides where `ls` runs from, `OLDPWD` is where `cd -` goes, `POSIXLY_CORRECT` turns on posix mode, `GLOBIGNORE` changes what globs match. Only a short list of inert ones (counters, history, locale, prompt strings walked as code…) may be assigned; any other makes the state after it unknown.',
    safer: 'use a variable name of your own, or run the commands in a script file reviewed on its own',
    unliftable: true,
    examples: ['BASH_ALIASES[ls]=cat; ls', 'cd src; OLDPWD=/etc; cd -'],
  },
  'dialect-difference': {
    category: 'parse',
    level: 'ask',
    message: '{detail} otherwise than bash, and may do more there',
    rationale:
      "shellgate reads shell code as bash. The shell that runs it may be another: zsh runs Claude Code's and Codex's commands on macOS (`--shell zsh`, settings `shell`), and a body run by `sh` (`sh -c`, text piped to `sh`, `sh FILE`, `find -exec sh -c`) runs in dash on Debian and Ubuntu. In zsh, `*(e:…:)` and `${(e)x}` run code, `=cmd` is a program's path, `path=(…)` moves PATH, `echo x > f | sh` sends the text on (MULTIOS) and `< file` alone runs a pager. In dash, `&>` is `&` then `>`, so `echo &>/dev/null rm -rf ~` runs rm; in `$'…'` a backslash does not escape the quote, so the quotes pair differently; `((…))` is two nested subshells that run the words inside; `[[` is an ordinary word, so its `>` truncates a file; `function f {` is a command and the body's lines run at once. A body run by `sh` is judged from bash's reading only when every construct in it means the same in dash (or only makes dash stop); anything else asks. The real dash checks this in the test suite's dash oracle.",
    safer: 'run the code with `bash -c`, or write it in portable POSIX sh (`>file 2>&1` instead of `&>file`)',
    unliftable: true,
    examples: ["sh -c '((rm = 1))'", "sh -c 'echo &>/dev/null rm -rf ~'", "sh -c \"echo \\$'a\\\\' ; ls #'\"", "sh -c '[[ a > b ]]'", "zsh -c 'ls *(e:true:)'"],
  },
  'trap-state': {
    category: 'dynamic',
    level: 'ask',
    message: "the trap action {detail} changes the shell's state at moments shellgate cannot know",
    rationale:
      "A DEBUG trap runs before every command, RETURN after each function, ERR after each failure, a signal trap whenever the signal comes. When its action changes the directory or a variable (`trap 'cd /' DEBUG`), no later command can be known to run before or after it, so the state of every later command is unknown.",
    safer: 'put the commands the trap would run in the line itself, or only trap EXIT',
    unliftable: true,
    examples: ["trap 'cd /etc' DEBUG; cat passwd"],
  },
} satisfies Record<string, FindingMeta>;

export type CoreFindingId = keyof typeof CORE_FINDINGS;

/** The ids of the core findings that have a property. */
export function findingsWith(flag: FindingFlag): ReadonlySet<string> {
  return new Set(
    Object.entries(CORE_FINDINGS as Record<string, FindingMeta>)
      .filter(([, m]) => m[flag] === true)
      .map(([id]) => id),
  );
}

/** Findings that only describe structure; option `chaining: 'ask'` raises them. */
export const STRUCTURE_FINDINGS: ReadonlySet<string> = findingsWith('structure');
