/**
 * zsh-specific commands for the real-zsh oracle (zsh-oracle.test.ts), one or more per class of
 * issue 28's zsh list, each with what the real zsh 5.9 does with it in the sandbox: the programs it
 * runs (`NAME`) or looks up and does not find (`NAME (missing)`), as a set. The oracle checks that
 * the sandbox observed exactly that set, so a case that does nothing in real zsh (a typo, a form
 * zsh does not read that way) fails as a broken case instead of passing as harmless. Payloads are
 * `sg-*` names, recorder stubs in the sandbox; the zsh oracle's /work holds README.md, notes.txt
 * and main.ts, so globs match.
 *
 * Also the precision cases: commands that only read inside the workspace and must stay allowed
 * when shellgate reads them as zsh.
 */

export interface ZshCase {
  /** The class of issue 28's zsh list. */
  kind: string;
  command: string;
  /** What real zsh runs: distinct program names, `NAME (missing)` for a name it looks up and does not find. */
  runs: string[];
  /** How zsh reads it otherwise than bash. */
  note: string;
}

/** Programs the cases run that are not ordinary ones: stubbed in the sandbox. */
export const ZSH_CASE_PROGRAMS = ['sg-ran', 'sg-a', 'sg-b'];

/** Names the cases need to be missing: never stubbed, even when shellgate lists them as programs. */
export const ZSH_CASE_ABSENT = ['no-such-program'];

export const ZSH_CASES: ZshCase[] = [
  // glob qualifiers run code for each file
  { kind: 'glob qualifier', command: "ls *(e:'sg-ran':)", runs: ['ls', 'sg-ran'], note: 'the e qualifier runs its text for every file matched' },
  { kind: 'glob qualifier', command: 'f() { sg-ran }; ls *(+f)', runs: ['ls', 'sg-ran'], note: '+NAME runs the function NAME for every file matched' },
  {
    kind: 'glob qualifier',
    command: 'ls *(+sg-ran)',
    runs: [],
    note: '+NAME takes a name of letters, digits and _: this is +sg then -ran, and the missing sg fails the glob',
  },
  { kind: 'glob qualifier', command: "echo *.md(e:'sg-ran $REPLY':)", runs: ['sg-ran'], note: 'a qualifier after a plain pattern' },
  { kind: 'glob qualifier', command: 'sg_f() { sg-ran }; print -l -- *(N+sg_f)', runs: ['sg-ran'], note: 'qualifiers combined; print is a builtin' },
  // pattern characters of a value
  { kind: 'glob of a value', command: "x='*(e:sg-ran:)'; echo $~x", runs: ['sg-ran'], note: '$~x globs the value, qualifiers included' },
  { kind: 'glob of a value', command: "f() { sg-ran }; x='*(+f)'; ls ${~x}", runs: ['ls', 'sg-ran'], note: '${~x} likewise' },
  { kind: 'glob of a value', command: "setopt globsubst; x='*(e:sg-ran:)'; echo $x", runs: ['sg-ran'], note: 'GLOB_SUBST makes every $x a pattern' },
  // parameter flags that evaluate
  { kind: '(e) flag', command: "x='$(sg-ran)'; echo ${(e)x}", runs: ['sg-ran'], note: '(e) expands the value again: its command substitution runs' },
  {
    kind: '(P) flag',
    command: "x='a[$(sg-ran)1]'; a=(one); echo ${(P)x}",
    runs: ['sg-ran'],
    note: '(P) reads the value as a parameter name, and its subscript is expanded',
  },
  { kind: 'split of a value', command: "x='sg-ran arg'; $=x", runs: ['sg-ran'], note: '$=x splits the value into words' },
  { kind: 'split of a value', command: "x='sg-ran arg'; $x", runs: ['sg-ran arg (missing)'], note: 'zsh does not split $x: one command name with a space' },
  { kind: 'split of a value', command: "x='sg-ran arg'; ${(s: :)x}", runs: ['sg-ran'], note: '(s: :) splits at spaces' },
  // = expansions
  { kind: '=(cmd)', command: 'cat =(sg-ran)', runs: ['cat', 'sg-ran'], note: '=(cmd) runs cmd into a temporary file' },
  { kind: '=cmd', command: '=sg-ran arg', runs: ['sg-ran'], note: '=cmd is the path of cmd; as a command word it runs it' },
  // special parameters that define code or the search path
  { kind: 'functions[]', command: "functions[ls]='sg-ran'; ls", runs: ['sg-ran'], note: 'an assignment to functions[ls] defines a function ls' },
  {
    kind: 'aliases[]',
    command: "aliases[ls]='sg-ran'; eval ls",
    runs: ['sg-ran'],
    note: 'an assignment to aliases[ls] aliases ls for code read later (eval, source)',
  },
  {
    kind: 'path=()',
    command: "print -r -- $'#!/bin/bash\\nsg-ran' > tool; zmodload zsh/files; chmod 755 tool; path=(/work $path); tool",
    runs: ['sg-ran'],
    note: 'path is PATH as an array: a workspace file runs by name (chmod is the zsh/files builtin)',
  },
  { kind: 'path=()', command: 'path=(); ls', runs: ['ls (missing)'], note: 'an empty path: nothing is found' },
  { kind: 'commands[]', command: 'commands[ls]=/usr/bin/sg-ran; ls', runs: ['sg-ran'], note: 'an assignment to commands[ls] hashes ls to another file' },
  { kind: 'commands[]', command: 'hash ls=/usr/bin/sg-ran; ls', runs: ['sg-ran'], note: 'hash NAME=PATH likewise' },
  { kind: 'options[]', command: "options[shwordsplit]=on; x='sg-ran arg'; $x", runs: ['sg-ran'], note: 'options[] sets an option as setopt does' },
  {
    kind: 'fpath=()',
    command: 'print -r -- sg-ran > myfn; fpath=(/work); autoload myfn; myfn',
    runs: ['sg-ran'],
    note: 'a function autoloaded from a workspace file',
  },
  {
    kind: 'startup file',
    command: 'print -r -- sg-ran > .zshenv; ZDOTDIR=/work zsh -c :',
    runs: ['sg-ran'],
    note: 'a nested zsh reads $ZDOTDIR/.zshenv first',
  },
  // a redirection alone runs a program
  { kind: 'NULLCMD', command: '> out.txt', runs: ['cat'], note: 'a redirection alone runs $NULLCMD (cat)' },
  { kind: 'NULLCMD', command: 'NULLCMD=sg-ran; > out.txt', runs: ['sg-ran'], note: 'NULLCMD names the program' },
  { kind: 'READNULLCMD', command: '< README.md', runs: ['pager'], note: 'an input redirection alone runs $READNULLCMD (pager on Debian)' },
  { kind: 'READNULLCMD', command: 'READNULLCMD=sg-ran; < README.md', runs: ['sg-ran'], note: 'READNULLCMD names the program' },
  // hook functions and traps zsh calls by name
  { kind: 'hook function', command: 'zshexit() { sg-ran }; :', runs: ['sg-ran'], note: 'zshexit runs when the shell exits' },
  { kind: 'hook function', command: 'TRAPEXIT() { sg-ran }; :', runs: ['sg-ran'], note: 'TRAPEXIT is trap … EXIT' },
  { kind: 'hook function', command: 'TRAPZERR() { sg-ran }; false', runs: ['sg-ran'], note: 'TRAPZERR runs after a command fails' },
  { kind: 'hook function', command: 'TRAPDEBUG() { sg-ran }; :', runs: ['sg-ran'], note: 'TRAPDEBUG runs before each command' },
  {
    kind: 'hook function',
    command: 'command_not_found_handler() { sg-ran }; no-such-program',
    runs: ['sg-ran'],
    note: 'the not-found handler runs instead of the missing name',
  },
  { kind: 'hook function', command: 'chpwd() { sg-ran }; cd /tmp', runs: ['sg-ran'], note: 'chpwd runs after every change of directory' },
  {
    kind: 'hook function',
    command: 'precmd() { sg-ran }; :',
    runs: [],
    note: 'precmd runs only before a prompt: never under zsh -c (an interactive zsh would)',
  },
  // modules that replace programs by builtins
  { kind: 'zmodload', command: 'zmodload zsh/files; zf_rm README.md && sg-ran', runs: ['sg-ran'], note: 'zf_rm is a builtin once zsh/files is loaded' },
  { kind: 'zmodload', command: 'zmodload zsh/files; rm notes.txt; mv main.ts x.ts', runs: [], note: 'zsh/files also shadows rm and mv: no program runs' },
  { kind: 'zmodload', command: 'zmodload -F zsh/files b:zf_ln; zf_ln -s /etc/passwd p && sg-ran', runs: ['sg-ran'], note: 'one builtin of a module' },
  // emulation and options
  { kind: 'emulate', command: 'emulate sh -c \'x="sg-ran arg"; $x\'', runs: ['sg-ran'], note: 'sh emulation splits $x, as bash would' },
  { kind: 'setopt', command: "setopt shwordsplit; x='sg-ran arg'; $x", runs: ['sg-ran'], note: 'an option set earlier on the line changes how $x is read' },
  { kind: 'setopt', command: 'setopt ksharrays; a=(sg-a sg-b); ${a[1]}', runs: ['sg-b'], note: 'KSH_ARRAYS counts from 0 again' },
  { kind: 'setopt', command: 'setopt rcexpandparam; a=(sg-a sg-b); x$a', runs: ['xsg-a (missing)'], note: 'RC_EXPAND_PARAM: x$a is xsg-a xsg-b' },
  // precommand modifiers
  { kind: 'precommand modifier', command: 'noglob sg-ran *', runs: ['sg-ran'], note: 'noglob runs its command with words unglobbed' },
  { kind: 'precommand modifier', command: 'nocorrect sg-ran', runs: ['sg-ran'], note: 'nocorrect runs its command' },
  { kind: 'precommand modifier', command: '- sg-ran', runs: ['sg-ran'], note: '- runs its command with a dash before argv[0]' },
  // MULTIOS
  { kind: 'MULTIOS', command: 'echo sg-ran > /dev/null | sh', runs: ['sg-ran'], note: 'with MULTIOS the output goes to the file and to the pipe too' },
  // short and alternative grammar
  { kind: 'short for', command: 'for d (a) sg-ran $d', runs: ['sg-ran'], note: 'for NAME (WORDS) COMMAND' },
  { kind: 'repeat', command: 'repeat 2 sg-ran', runs: ['sg-ran'], note: 'repeat N COMMAND' },
  { kind: 'foreach', command: 'foreach x (a b)\nsg-ran $x\nend', runs: ['sg-ran'], note: 'foreach … end' },
  { kind: 'if { }', command: 'if [[ -n x ]] { sg-a } else { sg-b }', runs: ['sg-a'], note: 'if COND { … } else { … }' },
  { kind: 'always', command: '{ sg-a } always { sg-b }', runs: ['sg-a', 'sg-b'], note: '{ … } always { … }' },
  { kind: 'short while', command: 'x=1; while (( x-- )) { sg-a }', runs: ['sg-a'], note: 'while COND { … }' },
  // arrays count from 1
  { kind: 'arrays from 1', command: 'a=(sg-a sg-b); ${a[1]}', runs: ['sg-a'], note: 'zsh arrays start at 1 (bash would run sg-b)' },
  { kind: 'arrays from 1', command: 'a=(sg-a sg-b); $a[1] x', runs: ['sg-a'], note: 'a subscript without braces' },
  // history modifiers
  { kind: 'history modifier', command: 'x=/usr/bin/sg-ran; $x:t', runs: ['sg-ran'], note: '$x:t is the tail of the path' },
  { kind: 'history modifier', command: 'x=/usr/bin/sg-ran/y; $x:h', runs: ['sg-ran'], note: '$x:h is the head of the path' },
  { kind: 'history modifier', command: 'x=sg-ran.txt; $x:r', runs: ['sg-ran'], note: '$x:r drops the suffix' },
  // named directories
  { kind: '~name', command: 'hash -d w=/usr/bin; ~w/sg-ran', runs: ['sg-ran'], note: '~w is a named directory' },
  // cd OLD NEW
  {
    kind: 'cd old new',
    command: 'cd /usr/local/bin; cd local/bin bin; ./sg-ran',
    runs: ['sg-ran'],
    note: 'cd OLD NEW replaces OLD by NEW in $PWD: now /usr/bin',
  },
  // echo escapes
  { kind: 'echo escapes', command: "echo 'sg\\x2dran' | sh", runs: ['sg-ran'], note: 'zsh’s echo reads \\x2d as - (bash’s prints it as is)' },
  { kind: 'echo escapes', command: "echo 'sg-ran\\c never' | sh", runs: ['sg-ran'], note: '\\c ends the output' },
  // aliases that apply to code read later
  { kind: 'alias -s', command: 'alias -s txt=sg-ran; eval notes.txt', runs: ['sg-ran'], note: 'a suffix alias: a command word ending .txt runs the alias' },
  { kind: 'alias -g', command: "alias -g G='| sg-ran'; eval 'echo hi G'", runs: ['sg-ran'], note: 'a global alias is replaced anywhere in a line' },
  // autoloaded functions of the zsh library
  { kind: 'autoload', command: "autoload -U zmv; zmv '(*).txt' '$1.bak'", runs: ['mv'], note: 'zmv is a function of the zsh library; it runs mv' },
  // The same classes with programs shellgate knows as read-only: a reading that misses what zsh
  // does lists the wrong program and allows, where an unknown sg-* name would ask in any reading.
  { kind: 'arrays from 1', command: 'a=(ls wc); ${a[1]}', runs: ['ls'], note: 'zsh runs ls, bash would run wc' },
  { kind: 'arrays from 1', command: 'a=(ls wc); $a[1] README.md', runs: ['ls'], note: 'a subscript without braces' },
  { kind: 'setopt', command: 'setopt ksharrays; a=(ls wc); ${a[1]}', runs: ['wc'], note: 'KSH_ARRAYS: from 0 again' },
  { kind: 'split of a value', command: "x='wc -l'; $x README.md", runs: ['wc -l (missing)'], note: 'no splitting: the name is `wc -l`' },
  { kind: 'split of a value', command: "x='wc -l'; $=x README.md", runs: ['wc'], note: '$=x splits' },
  { kind: 'emulate', command: 'emulate sh -c \'x="wc -l"; $x README.md\'', runs: ['wc'], note: 'sh emulation splits' },
  {
    kind: 'hook function',
    command: 'zshexit() { wc README.md; }; ls',
    runs: ['ls'],
    note: 'zsh -c execs its last command, an external one, in place of itself: zshexit does not run here (after a builtin it does, and an EXIT trap stops the exec)',
  },
  { kind: 'hook function', command: 'zshexit() { wc README.md; }; ls; :', runs: ['ls', 'wc'], note: 'a hook defined and never called by name' },
  { kind: 'hook function', command: 'TRAPEXIT() { wc README.md; }; ls', runs: ['ls', 'wc'], note: 'likewise' },
  { kind: 'hook function', command: 'TRAPZERR() { wc README.md; }; false', runs: ['wc'], note: 'likewise' },
  { kind: 'hook function', command: 'chpwd() { wc README.md; }; cd .', runs: ['wc'], note: 'likewise' },
  { kind: 'hook function', command: 'command_not_found_handler() { wc README.md; }; no-such-program', runs: ['wc'], note: 'likewise' },
  { kind: 'history modifier', command: 'x=/usr/bin/wc; $x:t README.md', runs: ['wc'], note: '$x:t' },
  { kind: 'functions[]', command: "functions[ls]='wc README.md'; ls", runs: ['wc'], note: 'ls is now a function that runs wc' },
  { kind: 'commands[]', command: 'commands[ls]=/usr/bin/wc; ls README.md', runs: ['wc'], note: 'ls is now hashed to wc' },
  { kind: 'alias -g', command: "alias -g G='| wc'; eval 'cat README.md G'", runs: ['cat', 'wc'], note: 'a global alias adds a pipe' },
  { kind: 'READNULLCMD', command: 'READNULLCMD=wc; < README.md', runs: ['wc'], note: 'the redirection alone runs wc' },
  { kind: 'NULLCMD', command: 'NULLCMD=wc; > out.txt', runs: ['wc'], note: 'likewise' },
  { kind: 'glob of a value', command: "x='*(e:wc:)'; echo $~x", runs: ['wc'], note: 'a qualifier in a value' },
  { kind: '(e) flag', command: "x='$(wc README.md)'; echo ${(e)x}", runs: ['wc'], note: 'a substitution in a value' },
  { kind: 'repeat', command: 'repeat 2 wc README.md', runs: ['wc'], note: 'repeat N COMMAND' },
  { kind: 'short for', command: 'for f (*.md) wc $f', runs: ['wc'], note: 'for NAME (WORDS) COMMAND' },
  { kind: 'precommand modifier', command: 'noglob ls *', runs: ['ls'], note: 'noglob' },
  { kind: 'precommand modifier', command: '- ls', runs: ['ls'], note: 'the dash modifier' },
  { kind: 'always', command: '{ ls } always { wc README.md }', runs: ['ls', 'wc'], note: '{ … } always { … }' },
];

/**
 * Commands that only read inside the workspace: shellgate must allow them under zsh as under bash
 * (the lead's unit tests use this list too).
 */
export const ZSH_PRECISION: string[] = [
  'ls **/*.ts',
  'echo {a,b}.txt',
  'cat README.md | head',
  'grep -rn TODO src',
  'git status',
  'ls -la',
  "find . -name '*.ts'",
  'ls',
  'cat README.md',
  'wc -l src/*.ts',
  'head -n 20 README.md',
  'git log --oneline -5',
  'git diff',
];
