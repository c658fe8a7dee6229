// The labelled precision corpus (corpus/precision/, issue 15): commands labelled by hand with what
// they really do, to measure how many read-only commands shellgate allows (allow-recall) and to
// prove it allows none of the others. Cases drawn from NL2Bash and tldr are stored as references
// (`nl2bash:LINE`, `tldr:LINE`, with a hash of the command) because those corpora are licensed and
// are read from ../shared/corpus, never copied; the cases the project wrote carry their command.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
const DIR = new URL('corpus/precision/', ROOT);
const SHARED = new URL('../shared/corpus/', ROOT);

/** The labels, strictest first; only `read-only` is expected to be allowed. */
export const LABELS = ['dangerous', 'privilege', 'system', 'process', 'network', 'sensitive', 'writes', 'runs-code', 'outside', 'unclear', 'read-only'];

/** The fixed context every case is judged in (corpus/README.md). */
export const PRECISION_CONTEXT = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: { USER: 'user' } };

/** The shells a case is read in (src/syntax/dialects.ts): bash, zsh, a POSIX sh as dash, and `auto`. */
export const SHELLS = ['bash', 'zsh', 'sh', 'auto'];

/** The shells a case may carry its own label for (`bash` is the plain `label`; `auto` is derived). */
const LABELLED_SHELLS = ['zsh', 'sh'];

/** The strictest of some labels (LABELS is ordered strictest first). */
function strictest(labels) {
  return LABELS[Math.min(...labels.map((l) => LABELS.indexOf(l)))];
}

/**
 * A case's label when read by `shell`: its own label for zsh or sh if it has one, else the plain
 * (bash) label; `auto`, the shell not being known, takes the strictest of bash's, zsh's and sh's.
 */
export function labelFor(c, shell) {
  if (!SHELLS.includes(shell)) throw new Error(`precision corpus: unknown shell "${shell}" (one of ${SHELLS.join(', ')})`);
  if (shell === 'bash') return c.label;
  if (shell === 'auto') return strictest([c.label, ...LABELLED_SHELLS.map((s) => c.shells[s] ?? c.label)]);
  return c.shells[shell] ?? c.label;
}

/** Whether ../shared/corpus, which the referenced cases are read from, is there. */
export function sharedPresent() {
  return existsSync(SHARED);
}

export function commandHash(command) {
  return createHash('sha256').update(command).digest('hex').slice(0, 10);
}

function sharedLines(name) {
  const url = new URL(name, SHARED);
  if (!existsSync(url)) throw new Error(`shared corpus file missing: ${url.pathname} (it sits beside the project as ../shared/corpus)`);
  const lines = readFileSync(url, 'utf8').split('\n');
  if (name === 'tldr.tsv') return lines.map((l) => l.split('\t').slice(2).join('\t'));
  return lines;
}

/** The command a reference names, checked against its hash (a changed corpus fails loudly). */
function resolve(ref, sha, lines) {
  const m = /^(nl2bash|tldr):(\d+)$/.exec(ref);
  if (m === null) throw new Error(`precision corpus: bad reference "${ref}"`);
  const source = m[1] === 'tldr' ? 'tldr.tsv' : 'nl2bash.txt';
  lines[source] ??= sharedLines(source);
  const command = lines[source][Number(m[2]) - 1];
  if (command === undefined || commandHash(command) !== sha) throw new Error(`precision corpus: ${ref} no longer holds the labelled command (hash ${sha})`);
  return command;
}

/** A case's per-shell labels, `{ zsh?, sh? }`, checked: only those shells, only known labels. */
function shellLabels(shells, where) {
  if (shells === undefined) return {};
  if (typeof shells !== 'object' || shells === null || Array.isArray(shells))
    throw new Error(`precision corpus ${where}: "shells" must be an object like {"zsh": "read-only"}`);
  for (const [shell, label] of Object.entries(shells)) {
    if (!LABELLED_SHELLS.includes(shell))
      throw new Error(
        `precision corpus ${where}: "shells" names "${shell}"; only ${LABELLED_SHELLS.join(' and ')} carry their own label (bash's is "label", auto's the strictest)`,
      );
    if (!LABELS.includes(label)) throw new Error(`precision corpus ${where}: unknown label "${label}" for ${shell}`);
  }
  return { ...shells };
}

/**
 * Every case: `{ file, line, ref, command, label, shells, note }` (`label` is bash's, `shells` the
 * labels zsh and sh give where they differ; labelFor reads one shell's). Throws on a label outside
 * LABELS, a case without a note, or a reference whose command changed. With `{ withoutShared: true }`
 * and ../shared/corpus missing, the referenced cases are left out instead of failing (the caller says so).
 */
export function precisionCases({ withoutShared = false } = {}) {
  const skipRefs = withoutShared && !sharedPresent();
  const lines = {};
  const out = [];
  for (const file of readdirSync(DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const text = readFileSync(new URL(file, DIR), 'utf8').split('\n');
    text.forEach((raw, i) => {
      if (raw.trim() === '') return;
      const c = JSON.parse(raw);
      const where = `${file}:${i + 1}`;
      if (!LABELS.includes(c.label)) throw new Error(`precision corpus ${where}: unknown label "${c.label}"`);
      if (typeof c.note !== 'string' || c.note.trim() === '') throw new Error(`precision corpus ${where}: a case needs a note`);
      const shells = shellLabels(c.shells, where);
      if (c.ref !== undefined && skipRefs) return;
      const command = c.ref !== undefined ? resolve(c.ref, c.sha, lines) : c.command;
      if (typeof command !== 'string') throw new Error(`precision corpus ${where}: neither a command nor a reference`);
      out.push({ file, line: i + 1, ref: c.ref ?? null, command, label: c.label, shells, note: c.note });
    });
  }
  return out;
}
