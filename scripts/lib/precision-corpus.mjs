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

/**
 * Every case: `{ file, line, ref, command, label, note }`. Throws on a label outside LABELS, a case
 * without a note, or a reference whose command changed.
 */
export function precisionCases() {
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
      const command = c.ref !== undefined ? resolve(c.ref, c.sha, lines) : c.command;
      if (typeof command !== 'string') throw new Error(`precision corpus ${where}: neither a command nor a reference`);
      out.push({ file, line: i + 1, ref: c.ref ?? null, command, label: c.label, note: c.note });
    });
  }
  return out;
}
