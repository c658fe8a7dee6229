/**
 * What proving a one-liner read-only gives: either the proof, with the files the code reads
 * (paths as written, or null when built at run time) and what else the analysis must check on
 * disk, or the first reason it could not be proven.
 *
 * A proof is a whitelist walk over the code's tokens: every name, attribute, module and call must
 * be on its language's list, so whatever the lists do not know keeps the command at `ask`.
 */

/** A file the code reads: `path` as written in a string literal, null when built at run time. */
export interface CodeRead {
  path: string | null;
  /** Listed (a directory read, `readdirSync`) rather than read. */
  list?: boolean;
}

export interface Proven {
  proven: true;
  reads: CodeRead[];
  /** Modules imported by name (`import json`): a file of that name where the code runs would shadow it (Python). */
  imports: string[];
  /** Relative JSON files `require`d (Node): they must be plain files, else `require` runs JavaScript. */
  requiredJson: string[];
  /** The code reads the whole environment (`os.environ`, `process.env`, `%ENV`): a dump. */
  wholeEnvironment: boolean;
}

export interface NotProven {
  proven: false;
  why: string;
}

export type Proof = Proven | NotProven;

export const notProven = (why: string): NotProven => ({ proven: false, why });

/** Collects what a proof finds while it walks the tokens. */
export class ProofBuilder {
  readonly reads: CodeRead[] = [];
  readonly imports = new Set<string>();
  readonly requiredJson: string[] = [];
  wholeEnvironment = false;

  done(): Proven {
    return { proven: true, reads: this.reads, imports: [...this.imports], requiredJson: this.requiredJson, wholeEnvironment: this.wholeEnvironment };
  }
}

/**
 * Environment variables a one-liner may read by name: the ones every shell session has and no
 * one keeps secrets in. Any other name is not proven (`DATABASE_URL`, `GITHUB_TOKEN`…): a
 * whitelist, where `printenv NAME` only refuses names that look secret.
 */
export const READABLE_VARIABLES: ReadonlySet<string> = new Set([
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'PATH',
  'PWD',
  'LANG',
  'LC_ALL',
  'TERM',
  'TZ',
  'TMPDIR',
  'EDITOR',
  'NODE_ENV',
  'VIRTUAL_ENV',
  'CONDA_DEFAULT_ENV',
  'CI',
  'HOSTNAME',
  'PYTHONPATH',
  'GOPATH',
  'JAVA_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
]);

/** A name Python, JavaScript and Perl use for interpreter internals (`__import__`, `__proto__`, `__END__`). */
export const isDunder = (name: string): boolean => name.startsWith('__');
