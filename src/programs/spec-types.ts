/**
 * Command knowledge as data. Each file in rules/programs/ holds one program's CommandSpec (or an
 * AliasSpec), named by the program (load-specs.ts `specFileName`). The analyser reads these to turn a simple command's argv into virtual
 * operations; anything a spec does not say is treated conservatively (unknown, never read-only).
 */

/** What a positional operand or an option value is to the program. */
export type ArgRole =
  | 'read' // a path the program reads (cat f)
  | 'write' // a path it creates or overwrites (touch f, sort -o f)
  | 'append' // a path it appends to
  | 'delete' // a path it removes (rm f)
  | 'list' // a directory it lists or walks (ls d, find d)
  | 'exec' // a program or script it runs (bash script.sh, rg --pre prog)
  | 'url' // a URL it fetches or sends to (curl URL)
  | 'host' // a host it connects to (ping host, ssh host)
  | 'text' // plain data: a pattern, a message, a name, a number
  | 'mode' // chmod/chown modes and owners
  | 'command' // the rest of argv is a command line that runs (handled by the walker)
  | 'shell-string' // a shell command line the program runs (`su -c STRING`, `flock -c STRING`)
  | 'code' // program text the interpreter runs (python -c CODE); `language` says which language
  | 'chdir'; // a directory the program changes to (`make -C DIR`, `env -C DIR`): its other paths and the command it runs resolve there

/**
 * What a program is, for the lists the analyser keeps (src/programs/registry.ts `tagged`): each
 * program's file says it (`"tags": ["shell"]`), rules/program-tags.json indexes them.
 */
export type ProgramTag =
  | 'wrapper' // runs a command given in its arguments (sudo, env, timeout, xargs, ssh…): walked inside
  | 'shell' // a shell: `-c STRING` is a script, a file operand is a script, no operand reads stdin
  | 'posix-shell' // reads $ENV at start-up (POSIX mode)
  | 'same-shell' // a wrapper that runs its command in this shell: a `cd` there changes later commands (builtin, command, eval)
  | 'interpreter' // runs program text in another language (python, node, perl…)
  | 'privilege' // runs something as another user or group (sudo, su, doas, sg…)
  | 'runs-as-root' // only root can run it, so what it runs is privileged (chroot)
  | 'network-fetcher' // fetches from the network (curl, wget…)
  | 'decoder' // turns encoded or compressed text back into text (base64 -d, gunzip…)
  | 'file-edit'; // only creates, changes, moves or links files: what an edit-accepting mode lets through

/** The three-valued class of a command. */
export type CommandClass = 'read-only' | 'mutating' | 'unknown';

/** Extra operation kinds a command always performs besides its operands. */
export type ExtraOp = 'Network' | 'Privilege' | 'Env' | 'Process' | 'System' | 'Exec';

/**
 * How a spec file may write an option: the full object, or one word for the common cases
 * (`"-a": "flag"`, `"-I": "value"`, `"--color": "value?"`). The loader turns the words into
 * objects (`{}`, `{ value: true }`, `{ value: 'optional' }`), so code after it sees OptionSpec only.
 */
export type OptionSpecInFile = OptionSpec | CompactOption;

/** The one-word spellings of an option with no other field. */
export type CompactOption = 'flag' | 'value' | 'value?';

export interface OptionSpec {
  /**
   * The option takes a value: `-o FILE`, `-oFILE`, `--output FILE`, `--output=FILE`.
   * `"optional"`: only an attached value counts (`--color=always`, `-i.bak`); the next word is
   * never taken (`ls --color /etc` lists /etc).
   */
  value?: boolean | 'optional';
  /** Role of the value when it takes one (default: 'text'). */
  role?: ArgRole;
  /** The language of the program text a `code` value holds (`python`, `javascript`…). */
  language?: string;
  /**
   * The option takes several words, with these roles (`jq --rawfile NAME FILE`: `["text", "read"]`).
   * Implies `value`; `role` is not used.
   */
  values?: ArgRole[];
  /**
   * Files the option makes the program print or send, `~` for the home directory
   * (`kubectl config view --raw` prints the credentials in ~/.kube/config).
   */
  reads?: string[];
  /** Using this option changes the command's class (`sed -i` → mutating). */
  class?: CommandClass;
  /** Operations this option adds (`curl --upload-file` → Network is already there; `-exec` → Exec). */
  ops?: ExtraOp[];
  /**
   * The option changes what the program is (`git commit --no-verify` skips the hooks a team relies
   * on): an allow rule's `*` does not stand for it, the rule must name it. The text says why.
   */
  named?: string;
  /** This option makes every operand take another role (`tar -x` makes operands 'text', archive write…). */
  operands?: ArgRole;
}

/**
 * A program's recursive walk, as its spec declares it (programs/walk-spec.ts reads it against
 * the argv). Links named on the command line are always taken as followed: the strictest reading.
 */
export interface WalkSpec {
  /** The program walks with no option given (`tree`, `du`, `tar -c`); `cp`, `ls` do not. */
  recursive: boolean;
  /** Options that turn the walk on (`true`: `cp -r`) or off (`false`: `tar --no-recursion`); the last given wins. */
  recursion?: Record<string, boolean>;
  /** Links met below a start point are followed by default (`zip -r`: yes; `cp -r`: no). */
  followsLinks: boolean;
  /** Options that change that: `true` follows (`cp -L`), `false` does not (`cp -P`); the last given wins. */
  links?: Record<string, boolean>;
  /** The walk only lists names and their sizes, no content (`ls -R`, `tree`, `du`). */
  lists?: boolean;
  /** Names starting with `.` below a start point are skipped (unless an option in `hidden` is given). */
  skipsHidden?: boolean;
  /** Options that make a walk that skips hidden names take them (`tree -a`). */
  hidden?: string[];
}

export interface CommandSpec {
  /** One line: what the program does. */
  summary: string;
  /** Class with no special options. */
  class: CommandClass;
  /** What the program is (wrapper, shell…); rules/program-tags.json indexes them for start-up. */
  tags?: ProgramTag[];
  /**
   * Roles of positional operands in order; the last entry repeats for any further operands.
   * Missing → every operand is 'text'.
   */
  operands?: ArgRole[];
  /**
   * Role of the last operand when there are at least two (cp a b c DEST, mv, ln, install).
   * Takes precedence over `operands` for that last position.
   */
  lastOperand?: ArgRole;
  /** The language of the program text a `code` operand holds (`deno eval CODE`: javascript). */
  language?: string;
  /** Operations always performed (curl → Network). */
  ops?: ExtraOp[];
  /**
   * Options by spelling: '-o', '--output'. Short options can be bundled (`-rf`); a short option
   * that takes a value consumes the rest of its bundle or the next word. `{}` is a flag with no
   * effect (written `"flag"` in the files, see OptionSpecInFile). `-NUM` stands for a dash followed by digits (`head -5`, `grep -3`).
   *
   * An option that is not listed is never assumed harmless: it gives an `unknown-option` finding
   * (ask). A long option may be abbreviated to a unique prefix only when the spec is `complete`
   * (otherwise the prefix may name an option the table leaves out).
   */
  options?: Record<string, OptionSpec>;
  /**
   * Where the option table came from: the documentation and version, with the commands that show
   * it in parentheses (`"GNU coreutils 9.4 (ls --help; man ls)"`). Given whenever it is known;
   * required when `complete` is true. `scripts/check-spec-options.mjs` runs those commands.
   */
  source?: string;
  /**
   * The option table was checked against `source` and lists every option, flags with no effect
   * included. Applies to this spec's own table only: a subcommand is complete when it says so
   * itself (options it inherits with `inheritOptions` are covered by its parent's).
   * `scripts/check-spec-options.mjs` compares complete specs with the installed programs' `--help`.
   */
  complete?: boolean;
  /**
   * How the program reads option words (default `"getopt"`: POSIX/GNU options as above).
   * `"echo"`: a word is options only when every letter is a listed option; any other word is an
   * operand, and so is `--` (bash's echo prints `-x` and `--`). `"none"`: every word is an
   * operand (`test`, `[`, `expr`, `true`).
   */
  optionSyntax?: 'getopt' | 'echo' | 'none';
  /**
   * Files the program (or subcommand) prints or sends whatever its operands, `~` for the home
   * directory (`aws configure export-credentials` prints ~/.aws/credentials). They hold for every
   * subcommand below the level that declares them (docker reads ~/.docker/config.json for all).
   */
  reads?: string[];
  /**
   * How the program walks the directories its `read` and `list` operands name (`cp -r`, `tar -c`,
   * `ls -R`, `tree`): a recursive read reaches every file below, and where links lead
   * (ops/recursive-read.ts). Missing: the operands are read as named, nothing below them.
   */
  walk?: WalkSpec;
  /**
   * Files or directories the program writes whenever it runs, whatever its operands: its logs,
   * caches and settings (`top` creates ~/.config/procps, npm its ~/.npm/_logs), the socket of the
   * daemon it talks to; `*` stands for any name (`/tmp/hsperfdata_*`). They hold for every
   * subcommand below the level that declares them. Not on a help-only command line: a program
   * whose help or version starts the same machinery leaves those options out of `help`.
   */
  writes?: string[];
  /**
   * Worked examples, run by test/programs/command-specs.test.ts like corpus cases: a command line using
   * this program, its level, and optionally its operations (`Kind target`) and findings.
   */
  examples?: SpecExample[];
  /**
   * Subcommands (git, npm, docker, kubectl…): the first operand selects one. Unknown subcommands
   * make the command 'unknown'. Options listed on the parent apply before the subcommand.
   */
  subcommands?: Record<string, CommandSpec>;
  /**
   * In a subcommand: the parent's options are accepted here too (`gcloud compute … --project P`),
   * so the file lists only what differs. The subcommand's own entries win.
   */
  inheritOptions?: boolean;
  /** Stop treating words as options after the first operand (`find`, many wrappers). */
  optionsFirst?: boolean;
  /**
   * Options that only print help or the version and exit (`--help`, `-h`, `--version`): a command
   * line of only these (and the subcommand path) is read-only whatever the program does otherwise
   * (programs/help-only.ts). It holds at this level only.
   */
  help?: string[];
  /**
   * Help options every subcommand below accepts (`git <any> -h`, `cargo <any> --help`), unless a
   * subcommand gives its own `help`, or its table gives the spelling another meaning.
   */
  subcommandHelp?: string[];
}

export interface SpecExample {
  command: string;
  level: 'allow' | 'ask' | 'deny';
  ops?: string[];
  rules?: string[];
}

/** Another name for a program that has its own entry: `{ "egrep": { "alias": "grep" } }`. */
export interface AliasSpec {
  alias: string;
  /** Tags are the name's own (`python3` is an interpreter as `python` is). */
  tags?: ProgramTag[];
}

/**
 * A file that only says what a program is, not how it reads its argv: the program stays an
 * unknown program to the analyser (no spec), the lists still name it
 * (`{ "summary": "…", "tagsOnly": true, "tags": ["network-fetcher"] }`).
 */
export interface TagsOnlySpec {
  summary: string;
  tagsOnly: true;
  tags: ProgramTag[];
}

export type CommandSpecFile = Record<string, CommandSpec | AliasSpec>;
