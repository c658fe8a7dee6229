/**
 * Every git configuration key that names a program or shell command, in one list, with the kind
 * of git run that starts it (from git-config(1), githooks(5), and runs of git 2.39 here with every
 * key and hook pointed at a logging script: see test/unit/project-config-git.test.ts).
 *
 * Only runs reachable from a read-only git command matter for the verdict (the others already
 * ask), but the list is complete so that one place says which keys run code.
 */

/** What part of a git run starts the program. */
export type GitRunPart =
  /** Reads the index or work tree (status, diff, ls-files…): core.fsmonitor, clean filters, post-index-change. */
  | 'index'
  /** Output goes to the pager. */
  | 'pager'
  /** Shows or converts file contents (diff/log -p/show/blame/archive): textconv, diff drivers, smudge filters. */
  | 'content'
  /** Checks a signature (verify-commit, log --show-signature, %G? formats). */
  | 'signature'
  /** Talks to a remote (ls-remote, fetch, push…). */
  | 'network'
  /** Shows documentation (git help TOPIC, git CMD --help). */
  | 'help'
  /** Invokes an alias by its name. */
  | 'alias'
  /** Only commands that already ask (commit, rebase, merge, difftool, send-email, gc…). */
  | 'other';

export interface CodeKeyFamily {
  /**
   * `section.key`, `section.<sub>.key` (any subsection), `section.<key>` (any key, no
   * subsection). Lowercase, as git normalises section and key names.
   */
  pattern: string;
  parts: GitRunPart[];
  /** Values that run nothing but git itself or a program every installation trusts. */
  harmless?: (value: string | null) => boolean;
  /** The key is only a program under a condition on its value or subsection. */
  runs?: (value: string | null, subsection: string | null) => boolean;
}

/** A boolean (core.fsmonitor=true is git's built-in daemon, false turns it off). */
const isBoolean = (v: string | null): boolean => v === null || /^(true|false|yes|no|on|off|1|0|)$/i.test(v);

/** Pager programs that only page, optionally in a pipeline (`diff-so-fancy | less -RFX`). */
const PAGERS = new Set(['less', 'more', 'most', 'cat', 'delta', 'diff-so-fancy', 'bat', 'batcat', 'diff-highlight']);
const SYSTEM_PREFIX = /^(?:\/usr\/local\/bin\/|\/usr\/bin\/|\/bin\/|\/opt\/homebrew\/bin\/)/;
export function isPlainPager(value: string | null): boolean {
  if (value === null) return false;
  if (value.trim() === '') return true; // an empty pager turns paging off
  return value.split('|').every((stage) => {
    const words = stage
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .split(/\s+/);
    const program = words[0].replace(SYSTEM_PREFIX, '');
    // Options only: `less +!cmd` and `less -k file` style arguments can run or load things.
    return PAGERS.has(program) && words.slice(1).every((w) => /^-[-A-Za-z0-9=,.]*$/.test(w) && !/^-k|^--lesskey/.test(w));
  });
}

const isSignatureTool = (v: string | null): boolean => v !== null && /^(gpg|gpg2|gpgsm|ssh-keygen)$/.test(v.trim().replace(SYSTEM_PREFIX, ''));
/** What `git lfs install` writes. */
const isGitLfs = (v: string | null): boolean => v !== null && /^git-lfs (clean|smudge|filter-process)( --skip)?( -- %f| %f)?$/.test(v.trim());
/** git's own credential helpers (git-credential-<name>), and the GitHub CLI's. */
const isStandardCredentialHelper = (v: string | null): boolean =>
  v !== null &&
  (/^\s*(cache|store|osxkeychain|libsecret|manager|manager-core|wincred|gnome-keyring)?(\s+--[a-z-]+(=\S+)?)*\s*$/.test(v) ||
    /^!(?:\/usr\/bin\/|\/usr\/local\/bin\/|\/opt\/homebrew\/bin\/)?gh auth git-credential$/.test(v.trim()));
/** Plain ssh with options, none of which runs a command of its own. */
const isPlainSsh = (v: string | null): boolean =>
  v !== null && /^\s*(?:\/usr\/bin\/)?ssh(\s+-[A-Za-z46]+(\s+[^\s;|&$`<>()]+)?)*\s*$/.test(v) && !/Command|ProxyJump|PermitLocal/i.test(v);
/** `<transport>::<address>` runs git-remote-<transport>; `ext::` runs a shell command. */
const TRANSPORT_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;

export const GIT_CODE_KEYS: readonly CodeKeyFamily[] = [
  { pattern: 'core.fsmonitor', parts: ['index'], harmless: isBoolean },
  { pattern: 'core.pager', parts: ['pager'], harmless: isPlainPager },
  // pager.<cmd> is looked up for the command being run (see pagerFor).
  { pattern: 'pager.<cmd>', parts: ['pager'], harmless: (v) => isBoolean(v) || isPlainPager(v) },
  // delta, a common pager, reads its own options (including the pager it runs) from git config.
  { pattern: 'delta.pager', parts: ['pager'], harmless: isPlainPager },
  { pattern: 'delta.<feature>.pager', parts: ['pager'], harmless: isPlainPager },
  { pattern: 'core.editor', parts: ['other'] },
  { pattern: 'sequence.editor', parts: ['other'] },
  { pattern: 'core.sshcommand', parts: ['network'], harmless: isPlainSsh },
  { pattern: 'core.gitproxy', parts: ['network'] },
  { pattern: 'core.askpass', parts: ['network'] },
  { pattern: 'core.alternaterefscommand', parts: ['network'] },
  { pattern: 'credential.helper', parts: ['network'], harmless: isStandardCredentialHelper },
  { pattern: 'credential.<url>.helper', parts: ['network'], harmless: isStandardCredentialHelper },
  { pattern: 'uploadpack.packobjectshook', parts: ['network'] },
  { pattern: 'remote.<name>.uploadpack', parts: ['network'] },
  { pattern: 'remote.<name>.receivepack', parts: ['network'] },
  { pattern: 'remote.<name>.vcs', parts: ['network'] },
  { pattern: 'remote.<name>.url', parts: ['network'], runs: (v) => v !== null && TRANSPORT_HELPER.test(v) },
  { pattern: 'remote.<name>.pushurl', parts: ['network'], runs: (v) => v !== null && TRANSPORT_HELPER.test(v) },
  { pattern: 'url.<base>.insteadof', parts: ['network'], runs: (_v, sub) => sub !== null && TRANSPORT_HELPER.test(sub) },
  { pattern: 'url.<base>.pushinsteadof', parts: ['network'], runs: (_v, sub) => sub !== null && TRANSPORT_HELPER.test(sub) },
  // Allowing the ext:: transport lets a remote URL be a shell command.
  { pattern: 'protocol.allow', parts: ['network'], runs: (v) => v !== null && /^always$/i.test(v.trim()) },
  { pattern: 'protocol.<name>.allow', parts: ['network'], runs: (v, sub) => sub === 'ext' && v !== null && !/^never$/i.test(v.trim()) },
  { pattern: 'gpg.program', parts: ['signature'], harmless: isSignatureTool },
  { pattern: 'gpg.<format>.program', parts: ['signature'], harmless: isSignatureTool },
  { pattern: 'gpg.ssh.defaultkeycommand', parts: ['other'] },
  { pattern: 'diff.external', parts: ['content'] },
  { pattern: 'diff.<driver>.command', parts: ['content'] },
  { pattern: 'diff.<driver>.textconv', parts: ['content'] },
  // A filter runs where .gitattributes assigns it; clean on reading the work tree, smudge on writing or showing it.
  { pattern: 'filter.<driver>.clean', parts: ['index', 'content'], harmless: isGitLfs },
  { pattern: 'filter.<driver>.smudge', parts: ['index', 'content'], harmless: isGitLfs },
  { pattern: 'filter.<driver>.process', parts: ['index', 'content'], harmless: isGitLfs },
  // git-lfs, itself run as a filter, runs its extensions on clean/smudge and custom transfer
  // agents when smudging downloads content.
  { pattern: 'lfs.extension.<name>.clean', parts: ['index', 'content'] },
  { pattern: 'lfs.extension.<name>.smudge', parts: ['index', 'content'] },
  { pattern: 'lfs.customtransfer.<name>.path', parts: ['content', 'network'] },
  { pattern: 'diff.tool', parts: ['other'] },
  { pattern: 'diff.guitool', parts: ['other'] },
  { pattern: 'difftool.<tool>.cmd', parts: ['other'] },
  { pattern: 'difftool.<tool>.path', parts: ['other'] },
  { pattern: 'merge.tool', parts: ['other'] },
  { pattern: 'merge.guitool', parts: ['other'] },
  { pattern: 'mergetool.<tool>.cmd', parts: ['other'] },
  { pattern: 'mergetool.<tool>.path', parts: ['other'] },
  { pattern: 'merge.<driver>.driver', parts: ['other'] },
  // alias.<name> / alias.<name>.command run for `git <name>` (see aliasFor).
  { pattern: 'alias.<name>', parts: ['alias'] },
  { pattern: 'alias.<name>.command', parts: ['alias'] },
  // man and woman are viewers git knows; any other name is looked up as man.<tool>.cmd/path.
  { pattern: 'man.viewer', parts: ['help'], harmless: (v) => v !== null && /^(man|woman)$/.test(v.trim()) },
  { pattern: 'man.<tool>.cmd', parts: ['help'] },
  { pattern: 'man.<tool>.path', parts: ['help'] },
  { pattern: 'help.browser', parts: ['help'] },
  { pattern: 'web.browser', parts: ['help'] },
  { pattern: 'browser.<tool>.cmd', parts: ['help'] },
  { pattern: 'browser.<tool>.path', parts: ['help'] },
  { pattern: 'instaweb.browser', parts: ['other'] },
  { pattern: 'instaweb.httpd', parts: ['other'] },
  { pattern: 'guitool.<name>.cmd', parts: ['other'] },
  { pattern: 'submodule.<name>.update', parts: ['other'], runs: (v) => v !== null && v.startsWith('!') },
  { pattern: 'sendemail.sendmailcmd', parts: ['other'] },
  { pattern: 'sendemail.smtpserver', parts: ['other'], runs: (v) => v !== null && v.startsWith('/') },
  { pattern: 'sendemail.tocmd', parts: ['other'] },
  { pattern: 'sendemail.cccmd', parts: ['other'] },
  { pattern: 'sendemail.headercmd', parts: ['other'] },
  { pattern: 'sendemail.<identity>.sendmailcmd', parts: ['other'] },
  { pattern: 'sendemail.<identity>.tocmd', parts: ['other'] },
  { pattern: 'sendemail.<identity>.cccmd', parts: ['other'] },
  { pattern: 'imap.tunnel', parts: ['other'] },
  { pattern: 'trailer.<token>.command', parts: ['other'] },
  { pattern: 'trailer.<token>.cmd', parts: ['other'] },
  { pattern: 'gc.recentobjectshook', parts: ['other'] },
  { pattern: 'interactive.difffilter', parts: ['other'] },
  // Copies hooks into every repository `git init`/`git clone` make.
  { pattern: 'init.templatedir', parts: ['other'] },
  { pattern: 'receive.procreceiverefs', parts: ['other'] },
  // core.hooksPath and hook.<name>.command are read with the hook events a run fires (hooks.ts).
  // core.fsmonitorHookVersion only selects the protocol spoken to core.fsmonitor: not a program.
];

interface CompiledFamily extends CodeKeyFamily {
  section: string;
  /** What the subsection must look like; null: there is none. */
  subsection: RegExp | null;
  /** '*': any key. */
  key: string;
}

const COMPILED: CompiledFamily[] = GIT_CODE_KEYS.map((f) => {
  const parts = f.pattern.split('.');
  const key = parts[parts.length - 1];
  if (parts.length === 2) return { ...f, section: parts[0], subsection: null, key: key.startsWith('<') ? '*' : key };
  // `lfs.extension.<name>.clean`: the subsection is `extension.<anything>`.
  const sub = parts
    .slice(1, -1)
    .map((p) => (p.startsWith('<') ? '.+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('\\.');
  return { ...f, section: parts[0], subsection: new RegExp(`^${sub}$`, 's'), key };
});

/** The family a configuration entry belongs to, if it names a program. */
export function codeKeyFamily(section: string, subsection: string | null, key: string): CompiledFamily | null {
  for (const f of COMPILED) {
    if (f.section !== section) continue;
    if (f.subsection === null ? subsection !== null : subsection === null || !f.subsection.test(subsection)) continue;
    if (f.key !== '*' && f.key !== key) continue;
    return f;
  }
  return null;
}

/** Does this entry, with this value, start a program (beyond git and the harmless ones)? */
export function runsProgram(f: CodeKeyFamily, value: string | null, subsection: string | null, unknownValue = false): boolean {
  if (unknownValue) return true;
  if (f.runs && !f.runs(value, subsection)) return false;
  return !f.harmless?.(value);
}
