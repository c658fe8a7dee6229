// Latency of one hook decision (issue 12, "Latency of one call"), side by side in one run:
//   - `node -e 0`, the floor every hook process pays;
//   - `shellgate hook claude-code` in-process, on a Claude Code Bash event and a Read event;
//   - `shellgate hook claude-code --server` against a running `shellgate serve` (Unix socket);
//   - the socket client alone in a bare node process (what `--server` costs without the CLI's
//     module graph: the lower bound of that path);
//   - one decision through `shellgate serve`'s HTTP path, from a client in this process over a
//     keep-alive connection (the same event repeated: mostly verdict-cache hits; and a different
//     command each time: a full analysis), and one socket request per new connection (peer check included).
// Process rows: median of RUNS separate processes each, the rows interleaved round-robin so that
// load on the machine falls on all of them alike. Prints a table and writes
// bench/results/hook-latency-<date>.json. Usage: npm run build && node bench/hook-latency.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createConnection } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.RUNS ?? 20);
const HTTP_REQUESTS = Number(process.env.HTTP_REQUESTS ?? 1000);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The installed command (bin/shellgate.cjs: the bundle with its code cache), and the unbundled
// ES modules it is built from, for comparison.
const BIN = join(ROOT, 'bin', 'shellgate.cjs');
const UNBUNDLED = join(ROOT, 'dist', 'cli', 'main.js');
const CLIENT = join(ROOT, 'dist', 'serve', 'client.js');
if (!existsSync(join(ROOT, 'dist', 'cli', 'shellgate.cjs')) || !existsSync(CLIENT)) throw new Error('build first: npm run build');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

// A user's project and home of their own, so the numbers do not depend on this machine's settings.
const TMP = mkdtempSync(join(tmpdir(), 'sg-bench-hook-'));
const HOME = join(TMP, 'home');
const PROJECT = join(TMP, 'project');
mkdirSync(HOME);
mkdirSync(join(PROJECT, '.claude'), { recursive: true });
mkdirSync(join(PROJECT, 'src'));
writeFileSync(join(PROJECT, 'src', 'index.ts'), 'export {};\n');
writeFileSync(join(PROJECT, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] } }));
const SOCKET = join(TMP, 's', 'sock');
const ENV = { ...process.env, HOME };

const event = (tool, input) =>
  JSON.stringify({
    session_id: '8f0c6a1e-5d2b-4c3e-9a7f-1b2c3d4e5f60',
    transcript_path: join(HOME, '.claude', 'projects', 'p', 't.jsonl'),
    cwd: PROJECT,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_01ABC123',
  });
const BASH = event('Bash', { command: 'git status --short && npm test -- --reporter=dot 2>&1 | tail -n 20', description: 'Run the tests', timeout: 120000 });
const READ = event('Read', { file_path: join(PROJECT, 'src', 'index.ts') });

/** Wall time of one process, from spawn to exit, with `input` on stdin. */
function timeProcess(args, input) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { cwd: PROJECT, env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - t, code, out }));
    child.stdin.end(input ?? '');
  });
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: at(0.5), p90: at(0.9), min: s[0], max: s[s.length - 1] };
};

// ---- the server
const server = spawn(process.execPath, [BIN, 'serve', '--socket', SOCKET, '--http', '0', '--idle-timeout', '0'], {
  cwd: PROJECT,
  env: ENV,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const line = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
  });
  server.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
});
const url = /http (http:\/\/127\.0\.0\.1:\d+)/.exec(line)[1];
const token = readFileSync(/bearer token in (\S+?)\)/.exec(line)[1], 'utf8').trim();

const clientScript = `import { askServer } from ${JSON.stringify(new URL('../dist/serve/client.js', import.meta.url).href)};
let input = ''; for await (const c of process.stdin) input += c;
const env = Object.fromEntries(Object.entries(process.env).filter((e) => e[1] !== undefined));
const r = await askServer(${JSON.stringify(SOCKET)}, { agent: 'claude-code', input, options: { config: null, presets: [], mode: null, workspaces: [], agentSettings: true, auditLog: null }, version: ${JSON.stringify(VERSION)}, cwd: process.cwd(), env, pid: process.pid });
if (!('answer' in r)) { console.error(r.unavailable); process.exit(3); }
process.stdout.write(r.answer.stdout);`;

const rows = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'hook claude-code (Bash)', args: [BIN, 'hook', 'claude-code'], input: BASH },
  { name: 'hook claude-code (Read)', args: [BIN, 'hook', 'claude-code'], input: READ },
  { name: 'hook claude-code (Bash), unbundled dist/cli/main.js', args: [UNBUNDLED, 'hook', 'claude-code'], input: BASH },
  { name: 'hook claude-code --server (Bash)', args: [BIN, 'hook', 'claude-code', '--server', SOCKET], input: BASH },
  { name: 'hook claude-code --server (Read)', args: [BIN, 'hook', 'claude-code', '--server', SOCKET], input: READ },
  { name: 'socket client alone, bare node (Bash)', args: ['--input-type=module', '-e', clientScript], input: BASH },
];

// Every row answers what the in-process hook answers (else the numbers compare different work).
const expected = { [BASH]: (await timeProcess([BIN, 'hook', 'claude-code'], BASH)).out, [READ]: (await timeProcess([BIN, 'hook', 'claude-code'], READ)).out };
for (const r of rows) {
  r.times = [];
  if (r.input === undefined) continue;
  const once = await timeProcess(r.args, r.input);
  if (once.out !== expected[r.input]) throw new Error(`${r.name} answered ${once.out} (expected ${expected[r.input]})`);
}
const load = loadavg()[0];
for (let i = 0; i < RUNS; i++) for (const r of rows) r.times.push((await timeProcess(r.args, r.input)).ms);

// ---- HTTP: one decision per request over one keep-alive connection
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const { hostname, port } = new URL(url);
function post(body) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = request(
      {
        agent,
        hostname,
        port,
        path: '/hook/claude-code',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let out = '';
        res.on('data', (d) => (out += d));
        res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode, out }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
async function httpRow(name, bodyOf) {
  for (let i = 0; i < 50; i++) await post(bodyOf(-1 - i)); // warm-up: V8 tiers up in a long-running server
  const times = [];
  for (let i = 0; i < HTTP_REQUESTS; i++) {
    const r = await post(bodyOf(i));
    if (r.status !== 200 || !r.out.includes('permissionDecision')) throw new Error(`${name}: ${r.status} ${r.out}`);
    times.push(r.ms);
  }
  return { name, times };
}
const varied = (i) =>
  event('Bash', {
    command: `git log --oneline -n ${i + 100} -- src/file${i}.ts && grep -rn "TODO ${i}" src | head -n 5`,
    description: 'look',
    timeout: 120000,
  });
const httpRows = [
  await httpRow('HTTP, same Bash event repeated', () => BASH),
  await httpRow('HTTP, a different Bash command each', varied),
  await httpRow('HTTP, same Read event repeated', () => READ),
];
agent.destroy();

// ---- socket: one request per new connection from this process (peer check included)
function socketOnce(body) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const c = createConnection(SOCKET);
    let buf = '';
    c.on('connect', () => c.write(JSON.stringify({ agent: 'claude-code', input: body, pid: process.pid }) + '\n'));
    c.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        c.destroy();
        resolve(performance.now() - t);
      }
    });
    c.on('error', reject);
  });
}
const socketTimes = [];
for (let i = 0; i < 200; i++) socketTimes.push(await socketOnce(varied(10_000 + i)));
httpRows.push({ name: 'socket, new connection per request', times: socketTimes });

server.kill('SIGTERM');

// ---- report
const floor = stats(rows[0].times).median;
const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), loadAverageAtStart: load },
  node: process.version,
  shellgate: VERSION,
  date: new Date().toISOString(),
  runsPerProcessRow: RUNS,
  requestsPerHttpRow: HTTP_REQUESTS,
  processes: rows.map((r) => ({ name: r.name, ...stats(r.times), timesOfNodeE0: stats(r.times).median / floor })),
  inServer: httpRows.map((r) => ({ name: r.name, ...stats(r.times), timesOfNodeE0: stats(r.times).median / floor })),
};
const f = (x, d = 1) => x.toFixed(d);
console.log(`shellgate hook latency — ${results.machine.cpus} cores (${results.machine.model}), node ${results.node}, load ${f(load, 2)}, ${results.date}`);
console.log(`${'row'.padEnd(42)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(8)} ${'× node -e 0'.padStart(12)}`);
for (const r of [...results.processes, ...results.inServer])
  console.log(
    `${r.name.padEnd(42)} ${f(r.median, r.median < 10 ? 2 : 1).padStart(10)} ${f(r.p90, r.p90 < 10 ? 2 : 1).padStart(8)} ${f(r.timesOfNodeE0, 3).padStart(12)}`,
  );
console.log(`(process rows: median of ${RUNS} processes; in-server rows: median of ${HTTP_REQUESTS} HTTP requests over keep-alive, 200 socket connections)`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const out = join(ROOT, 'bench', 'results', `hook-latency-${results.date.slice(0, 10)}.json`);
writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
console.log(`wrote ${out}`);
