// Parse coverage measured against real bash: for every command of every corpus, does `bash -n`
// accept it, and does our parser parse it cleanly (no issue, no Unparsed node)?
//
//   npx tsc -p tsconfig.json && node scripts/bash-n-coverage.mjs [--parser ours|tree-sitter]
//        [--out DIR] [--workers N] [--json]
//
// Prints one row per corpus (total, bash accepts, we accept, bash-accepts-we-reject,
// we-accept-bash-rejects) and writes to DIR (default /tmp/shellgate-bash-n):
//   summary.json                    the table as JSON (for the closing note)
//   bash-accepts-we-reject.jsonl    one line per command: corpus, command, what our parser reported
//   we-accept-bash-rejects.jsonl    one line per command: corpus, command, bash's message, and
//                                   whether bash accepts it with extglob on
// With --json the summary is also printed on stdout.
//
// How bash is asked: a pool of long-lived bash workers reads NUL-separated commands and runs
// `bash -n -c "$cmd"` for each, so every command is parsed on its own by a fresh bash, and only
// bash's own start-up is paid per command (no node spawn). `bash -n` reads and parses without
// executing anything (so `shopt -s extglob` on the line has no effect, and aliases are not
// expanded: a `bash -c` never expands them either). Bash runs with default options (extglob off,
// as under `bash -c`); commands it rejects are asked again with `-O extglob` so that the report
// can tell extglob patterns from errors. bash accepts a command when `bash -n` exits 0 and says
// nothing but warnings: for an error inside `[[ … ]]` (`unexpected argument to conditional binary
// operator`) bash 5.2 exits 0 after printing the error, and runs nothing of the line either.
// Answers are cached by a hash of bash's version, the
// options and the command in $XDG_CACHE_HOME/shellgate-dev/bash-n.jsonl (outside the repo), so
// reruns only ask about new commands.
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCorpora } from './lib/corpora.mjs';

const { firstUnparsed } = await import(new URL('../dist/syntax/parse-result.js', import.meta.url).href);

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Options

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const PARSER = option('--parser', 'ours');
const OUT = option('--out', join(tmpdir(), 'shellgate-bash-n'));
const WORKERS = Math.max(1, Number(option('--workers', String(cpus().length))));
const PRINT_JSON = process.argv.includes('--json');
if (!['ours', 'tree-sitter'].includes(PARSER)) throw new Error(`--parser must be ours or tree-sitter, not ${PARSER}`);

// ---------------------------------------------------------------------------------------------
// Corpora: name → unique commands, in file order

function corpora() {
  // The project corpus last, under the name the reports use.
  const { project, ...shared } = allCorpora();
  const lists = { ...shared, 'project corpus': project };
  return Object.entries(lists).map(([name, commands]) => ({ name, records: commands.length, commands: [...new Set(commands)] }));
}

// ---------------------------------------------------------------------------------------------
// Our parser (the one switch: `ours` is parseBash, `tree-sitter` the old front end)

async function loadParser() {
  if (PARSER === 'tree-sitter') {
    const { BashParser } = await import(join(ROOT, 'dist/syntax/tree-sitter/parser.js'));
    const p = await BashParser.create();
    return (s) => p.parse(s);
  }
  const { parseBash } = await import(join(ROOT, 'dist/syntax/parser/index.js'));
  return parseBash;
}

/** Null when the parse is clean, else what made it unclean (for the report). */
function uncleanReason(parse, command) {
  let r;
  try {
    r = parse(command);
  } catch (e) {
    return { threw: String(e?.message ?? e) };
  }
  const u = firstUnparsed(r.script);
  if (r.issues.length === 0 && u === null) return null;
  const out = {};
  if (r.issues.length > 0) out.issues = r.issues.slice(0, 3).map((i) => ({ kind: i.kind, at: i.span.start, text: i.text }));
  if (u) out.unparsed = { reason: u.reason, at: u.span.start, raw: u.raw.slice(0, 80) };
  return out;
}

// ---------------------------------------------------------------------------------------------
// bash -n, through a pool of workers, with a cache

const BASH = existsSync('/usr/bin/bash') ? '/usr/bin/bash' : '/bin/bash';
const BASH_VERSION = execFileSync(BASH, ['-c', 'echo "$BASH_VERSION"'], { encoding: 'utf8' }).trim();
const CACHE_DIR = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shellgate-dev');
const CACHE = join(CACHE_DIR, 'bash-n.jsonl');

/**
 * Reads `cmd\0` records on stdin and writes `status\0message\0` for each. `$1` is a scratch file
 * for bash's stderr; the rest of the arguments are options for the checking bash (`-O extglob`).
 * stdin of the checking bash is /dev/null: it must never read the worker's queue. `--` before the
 * command: without it bash reads a command that starts with `-` or `+` as its own options.
 */
const WORKER = `
err=$1; shift
while IFS= read -r -d '' cmd; do
  "${BASH}" "$@" -n -c -- "$cmd" bash 2>"$err" </dev/null
  s=$?
  IFS= read -r -d '' msg <"$err"
  printf '%s\\0%s\\0' "$s" "$msg"
done
`;

/** Bumped when the way bash is asked changes, so that older answers are not reused. */
const CACHE_VERSION = 2;

function cacheKey(options, command) {
  return createHash('sha256')
    .update(`${CACHE_VERSION}\0${BASH_VERSION}\0${options.join(' ')}\0${command}`)
    .digest('hex')
    .slice(0, 32);
}

function loadCache() {
  const m = new Map();
  if (!existsSync(CACHE)) return m;
  for (const line of readFileSync(CACHE, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const { k, s, m: msg } = JSON.parse(line);
      m.set(k, { status: s, message: msg });
    } catch {
      // a line cut by an interrupted run: asked again
    }
  }
  return m;
}

function runWorker(commands, options, scratch) {
  return new Promise((resolve, reject) => {
    const child = spawn(BASH, ['-c', WORKER, 'worker', join(scratch, `err-${Math.random().toString(36).slice(2)}`), ...options], {
      cwd: scratch,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', HOME: scratch },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const fields = Buffer.concat(chunks).toString('utf8').split('\0');
      fields.pop();
      if (fields.length !== commands.length * 2)
        return reject(new Error(`bash -n worker exited ${code} after ${fields.length / 2} of ${commands.length} answers`));
      const out = [];
      for (let i = 0; i < commands.length; i++) out.push({ status: Number(fields[2 * i]), message: fields[2 * i + 1].trim().slice(0, 400) });
      resolve(out);
    });
    child.stdin.end(commands.map((c) => c + '\0').join(''));
  });
}

/** bash accepted the command: it exited 0 and printed nothing but warnings (see the top). */
function accepted(answer) {
  return answer.status === 0 && answer.message.split('\n').every((l) => l.trim() === '' || l.includes('warning:'));
}

/** bash's answer for each command (null for a command bash cannot be given: it holds a NUL). */
async function askBash(commands, options, cache) {
  const todo = [...new Set(commands.filter((c) => !c.includes('\0') && !cache.has(cacheKey(options, c))))];
  if (todo.length > 0) {
    const scratch = mkdtempSync(join(tmpdir(), 'shellgate-bash-n-'));
    try {
      const shares = Array.from({ length: Math.min(WORKERS, todo.length) }, () => []);
      todo.forEach((c, i) => shares[i % shares.length].push(c));
      const t0 = Date.now();
      const answers = await Promise.all(shares.map((s) => runWorker(s, options, scratch)));
      mkdirSync(CACHE_DIR, { recursive: true });
      const lines = [];
      shares.forEach((share, w) =>
        share.forEach((c, i) => {
          const a = answers[w][i];
          const k = cacheKey(options, c);
          cache.set(k, a);
          lines.push(JSON.stringify({ k, s: a.status, m: a.message }));
        }),
      );
      appendFileSync(CACHE, lines.join('\n') + '\n');
      console.error(`bash ${options.join(' ') || '(default options)'} -n: asked about ${todo.length} commands in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return commands.map((c) => (c.includes('\0') ? null : cache.get(cacheKey(options, c))));
}

// ---------------------------------------------------------------------------------------------

const parse = await loadParser();
const cache = loadCache();
const sets = corpora();
const rows = [];
const weReject = [];
const bashRejects = [];

for (const { name, records, commands } of sets) {
  const answers = await askBash(commands, [], cache);
  const row = {
    corpus: name,
    records,
    total: commands.length,
    bashAccepts: 0,
    weAccept: 0,
    both: 0,
    bashAcceptsWeReject: 0,
    weAcceptBashRejects: 0,
    notCheckable: 0,
  };
  const rejectedByBash = [];
  commands.forEach((command, i) => {
    const a = answers[i];
    const unclean = uncleanReason(parse, command);
    if (unclean === null) row.weAccept++;
    if (a === null) {
      row.notCheckable++;
      return;
    }
    const bashOk = accepted(a);
    if (bashOk) row.bashAccepts++;
    if (bashOk && unclean === null) row.both++;
    if (bashOk && unclean !== null) {
      row.bashAcceptsWeReject++;
      weReject.push({ corpus: name, command, ours: unclean, ...(a.message ? { bashWarning: a.message } : {}) });
    }
    if (!bashOk && unclean === null) {
      row.weAcceptBashRejects++;
      rejectedByBash.push({ corpus: name, command, bash: a.message });
    }
  });
  const extglob = await askBash(
    rejectedByBash.map((r) => r.command),
    ['-O', 'extglob'],
    cache,
  );
  rejectedByBash.forEach((r, i) => bashRejects.push({ ...r, acceptedWithExtglob: !!extglob[i] && accepted(extglob[i]) }));
  rows.push(row);
}

const pct = (n, d) => (d === 0 ? '-' : ((100 * n) / d).toFixed(2) + '%');
const table = [
  ['corpus', 'total', 'bash accepts', 'we accept', 'bash accepts, we reject', 'we accept, bash rejects'],
  ...rows.map((r) => [
    r.corpus,
    r.total,
    r.bashAccepts,
    r.weAccept,
    `${r.bashAcceptsWeReject} (${pct(r.bashAcceptsWeReject, r.bashAccepts)})`,
    r.weAcceptBashRejects,
  ]),
];
const widths = table[0].map((_, c) => Math.max(...table.map((row) => String(row[c]).length)));
console.log(`parser: ${PARSER}; bash ${BASH_VERSION}; unique commands per corpus`);
for (const row of table) console.log(row.map((x, c) => (c === 0 ? String(x).padEnd(widths[c]) : String(x).padStart(widths[c]))).join('  '));

mkdirSync(OUT, { recursive: true });
const summary = {
  parser: PARSER,
  bash: BASH_VERSION,
  rows,
  files: { bashAcceptsWeReject: join(OUT, 'bash-accepts-we-reject.jsonl'), weAcceptBashRejects: join(OUT, 'we-accept-bash-rejects.jsonl') },
};
writeFileSync(join(OUT, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
writeFileSync(summary.files.bashAcceptsWeReject, weReject.map((x) => JSON.stringify(x)).join('\n') + (weReject.length ? '\n' : ''));
writeFileSync(summary.files.weAcceptBashRejects, bashRejects.map((x) => JSON.stringify(x)).join('\n') + (bashRejects.length ? '\n' : ''));
console.log(`lists and summary.json in ${OUT}`);
if (PRINT_JSON) console.log(JSON.stringify(summary, null, 2));
