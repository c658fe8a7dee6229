// Every command corpus, read one way for the scripts and the bench: the shared real-world corpora
// in ../shared/corpus (read from there, never copied) and the project's own corpus/*.jsonl.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
const SHARED = new URL('../shared/corpus/', ROOT);
const OWN = new URL('corpus/', ROOT);

/** The `command` of each line of a JSON-lines text (lines without one are skipped). */
function jsonlCommands(text) {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l).command)
    .filter((c) => typeof c === 'string');
}

/** The project's own cases, its files in name order. */
export function projectCommands() {
  return readdirSync(OWN)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => jsonlCommands(readFileSync(new URL(f, OWN), 'utf8')));
}

/** A shared corpus's commands, or null when ../shared/corpus does not hold it. */
export function sharedCommands(name) {
  const file = { nl2bash: 'nl2bash.txt', tldr: 'tldr.tsv' }[name] ?? `${name}.jsonl`;
  const url = new URL(file, SHARED);
  if (!existsSync(url)) return null;
  const text = readFileSync(url, 'utf8');
  if (name === 'nl2bash') return text.split('\n').filter((l) => l !== '');
  if (name === 'tldr')
    return text
      .split('\n')
      .slice(1)
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[2] ?? '');
  return jsonlCommands(text);
}

export const SHARED_CORPORA = ['nl2bash', 'tldr', 'bypass-cases', 'guard-cases', 'peer-cases', 'atomic-red-team'];

/** Every corpus, name → commands: the shared ones (each must be there), then the project's. */
export function allCorpora() {
  const out = {};
  for (const name of SHARED_CORPORA) {
    const commands = sharedCommands(name);
    if (commands === null) throw new Error(`shared corpus missing: ${name} (in ${SHARED.pathname})`);
    out[name] = commands;
  }
  out.project = projectCommands();
  return out;
}
