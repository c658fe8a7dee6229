/**
 * The core findings: stable ids, their category and level, and a message that teaches. Guard
 * rules (rules/builtin/) add their own ids; these are the analyser's.
 */
import type { Level } from './types.js';

export interface FindingMeta {
  category: string;
  level: Level;
  /** `{detail}` is replaced by what the finding is about (a path, a program, a host). */
  message: string;
  /** A safer way to get the same work done, told to the agent with the decision (optional). */
  safer?: string;
}

export const CORE_FINDINGS = {
  'parse-error': {
    category: 'parse',
    level: 'ask',
    message: 'bash cannot parse {detail}, so what would run cannot be known',
  },
  'unsupported-syntax': {
    category: 'parse',
    level: 'ask',
    message: 'shellgate does not model this construct ({detail}); it is not checked',
  },
  'internal-error': {
    category: 'internal',
    level: 'ask',
    message: 'shellgate failed on this input ({detail}); it asks rather than guess — please report it',
  },
  'parser-disagreement': {
    category: 'parse',
    level: 'ask',
    message: 'two bash parsers read this command differently ({detail}); what runs is uncertain',
  },
  'parse-doubt': {
    category: 'parse',
    level: 'ask',
    message: 'bash may read {detail} differently from shellgate\'s parser; every reading was checked, and what runs is uncertain',
  },
  'expansion-limit': {
    category: 'limit',
    level: 'ask',
    message: 'an expansion goes past what shellgate follows ({detail}); the rest is not checked',
  },
  'depth-limit': {
    category: 'limit',
    level: 'ask',
    message: 'nesting deeper than shellgate follows ({detail}); what is inside is not checked',
  },
  'input-limit': {
    category: 'limit',
    level: 'ask',
    message: 'input past the analysis limit ({detail}) is not checked',
  },
  'dynamic-command': {
    category: 'dynamic',
    level: 'ask',
    message: 'the program name {detail} is only known at run time, so the command that runs cannot be checked',
  },
  'dynamic-script': {
    category: 'dynamic',
    level: 'ask',
    message: 'a command string built at run time is executed ({detail}); its content cannot be checked',
  },
  'dynamic-path': {
    category: 'dynamic',
    level: 'ask',
    message: 'a path is only known at run time ({detail}); what it touches cannot be checked',
  },
  'arithmetic-injection': {
    category: 'dynamic',
    level: 'ask',
    message: 'an unknown value is evaluated as arithmetic ({detail}); bash runs `$(…)` hidden in such values (a[$(cmd)])',
  },
  'prompt-expansion': {
    category: 'dynamic',
    level: 'ask',
    message: '{detail} expands a value as a prompt string, which can run command substitutions inside it',
  },
  'zsh-expansion': {
    category: 'dynamic',
    level: 'ask',
    message: 'zsh would expand {detail} to a program path; the word means different things in bash and zsh',
  },
  'control-character': {
    category: 'parse',
    level: 'ask',
    message: 'the command holds {detail}; shells, parsers and terminals read such characters differently',
  },
  'line-continuation': {
    category: 'parse',
    level: 'ask',
    message: 'a backslash-newline splits a word ({detail}); bash joins it before reading, so the word is not what it looks like',
  },
  'secret-variable': {
    category: 'exfiltration',
    level: 'ask',
    message: 'expands {detail}, which looks like a secret; its value would be shown or sent',
  },
  'env-dump': {
    category: 'exfiltration',
    level: 'ask',
    message: '{detail} prints the whole environment, secrets included',
  },
  'unknown-command': {
    category: 'unknown',
    level: 'ask',
    message: 'shellgate has no description of {detail}; an unknown program could do anything',
  },
  'named-option': {
    category: 'policy',
    level: 'allow',
    message: '{detail}: an allow rule covers this only if it names the option; a `*` does not stand for it',
  },
  'unknown-option': {
    category: 'unknown',
    level: 'ask',
    message: '{detail}; what the option does is unknown, so it is not taken as harmless',
  },
  'repo-code': {
    category: 'exec',
    level: 'ask',
    message: '{detail} can run a program that configuration it loads names',
  },
  'exec-config': {
    category: 'exec',
    level: 'ask',
    message: 'writes {detail}, a file that changes what later commands run when they load it (git config and hooks, tool settings); edit modes do not approve it',
  },
  'unknown-effect': {
    category: 'unknown',
    level: 'ask',
    message: '{detail} runs code or has effects that depend on its input',
  },
  'stdin-exec': {
    category: 'exec',
    level: 'ask',
    message: '{detail} executes program text read from its input',
  },
  write: { category: 'write', level: 'ask', message: 'writes {detail}' },
  'state-change': { category: 'write', level: 'ask', message: '{detail} changes files or state' },
  delete: { category: 'delete', level: 'ask', message: 'deletes {detail}' },
  exec: { category: 'exec', level: 'ask', message: 'executes {detail}' },
  network: { category: 'network', level: 'ask', message: 'talks to the network ({detail})' },
  privilege: { category: 'privilege', level: 'ask', message: 'runs with raised privileges ({detail})' },
  process: { category: 'process', level: 'ask', message: 'signals or controls processes ({detail})' },
  system: { category: 'system', level: 'ask', message: 'changes system state ({detail})' },
  'env-hijack': {
    category: 'env',
    level: 'ask',
    message: 'sets {detail}, which changes what later commands run or load',
  },
  'outside-workspace': {
    category: 'outside-workspace',
    level: 'ask',
    message: 'reaches outside the workspace: {detail}',
  },
  'sensitive-path': {
    category: 'sensitive',
    level: 'ask',
    message: 'touches a sensitive file (credentials, keys, shell or agent settings): {detail}',
  },
  remote: { category: 'remote', level: 'ask', message: 'runs on another host ({detail})' },
  chaining: {
    category: 'chaining',
    level: 'allow',
    message: 'several commands are chained ({detail}); each is checked on its own',
  },
  substitution: {
    category: 'substitution',
    level: 'allow',
    message: 'a substitution runs a command ({detail}); it is checked too',
  },
  redirect: { category: 'redirect', level: 'allow', message: 'redirects {detail}' },
  background: { category: 'background', level: 'allow', message: '{detail} runs in the background' },
} satisfies Record<string, FindingMeta>;

export type CoreFindingId = keyof typeof CORE_FINDINGS;

/** Findings that only describe structure; option `chaining: 'ask'` raises them. */
export const STRUCTURE_FINDINGS: ReadonlySet<string> = new Set(['chaining', 'substitution', 'redirect', 'background']);
