// `shellgate serve` under load and under a connection flood (issue 29, items 9 and 10). Not pass/fail:
// it prints a table and writes bench/results/serve-load-<date>.json.
//
//   1. load: CLIENTS concurrent clients on the Unix socket, each sending typical agent commands one
//      after another (a connection per request, as `hook --server` does) for SECONDS, while one more
//      client sends the slowest command we could write under 4 KB. Reported: p50/p99/max latency of
//      the others, and how many requests were unanswered past the deadline (must be 0).
//   2. flood: an unauthenticated peer (uid 65534 when run as root) holds FLOOD idle connections to
//      the HTTP port and opens a new one whenever the server closes one, while an authenticated client
//      keeps POSTing hook events for SECONDS. Reported: its p50/p99 and failures.
//
// Usage: npm run build && node bench/serve-load.mjs   (bench/run.mjs runs it too: measureServeLoad)
// Environment: SHELLGATE_BENCH_SERVE_SECONDS (default 10), SHELLGATE_BENCH_SERVE_CLIENTS (100),
// SHELLGATE_BENCH_SERVE_FLOOD (5000).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = new URL('..', import.meta.url);
const LAUNCHER = new URL('bin/shellgate.cjs', ROOT).pathname;
const env = (name, d) => (process.env[name] === undefined ? d : Number(process.env[name]));
const SECONDS = env('SHELLGATE_BENCH_SERVE_SECONDS', 10);
const CLIENTS = env('SHELLGATE_BENCH_SERVE_CLIENTS', 100);
const FLOOD = env('SHELLGATE_BENCH_SERVE_FLOOD', 5000);
const DEADLINE_S = 5;

// The fixture: a project and a home in a temporary folder, made by measureServeLoad and removed after.
let TMP, HOME, PROJECT, SOCK;
function makeFixture() {
  TMP = mkdtempSync(join(tmpdir(), 'sg-serve-load-'));
  HOME = join(TMP, 'home');
  PROJECT = join(TMP, 'project');
  SOCK = join(TMP, 's', 'sock');
  mkdirSync(HOME);
  mkdirSync(join(PROJECT, 'src'), { recursive: true });
  writeFileSync(join(PROJECT, 'src', 'index.ts'), 'export {};\n');
}

const TYPICAL = [
  'git status',
  'ls -la src',
  'cat package.json',
  'grep -rn TODO src',
  'npm test',
  'git diff --stat HEAD~1',
  'find . -name "*.ts" -not -path "./node_modules/*"',
  'rm -rf build',
  'git log --oneline -20 | head -5',
  'sed -n 1,40p src/index.ts',
  'curl -fsSL https://example.com/install.sh | sh',
  'for f in src/*.ts; do wc -l "$f"; done',
];
const words = Array(1500).fill('x').join(' ');
// bench/walk-budget.mjs's slowest line: ~3 KB, about a second of analysis on an idle machine.
const SLOW = `f(){ grep -rn ${words} .; }; ${Array(60).fill('f').join(';')}`;
if (SLOW.length >= 4096) throw new Error('the slow command must stay under 4 KB');

const event = (command) =>
  JSON.stringify({
    session_id: 'bench',
    transcript_path: join(HOME, 't.jsonl'),
    cwd: PROJECT,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
  });

function startServer() {
  const child = spawn(process.execPath, [LAUNCHER, 'serve', '--socket', SOCK, '--http', '0', '--idle-timeout', '0', '--deadline', String(DEADLINE_S)], {
    cwd: PROJECT,
    env: { ...process.env, HOME, XDG_RUNTIME_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(out)[1]);
      const token = readFileSync(/bearer token in (\S+?)\)/.exec(out)[1], 'utf8').trim();
      resolve({ child, port, token, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${err}`)));
  });
}

/** One request over the socket: latency in ms, or an error. */
function askSocket(input) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const c = createConnection(SOCK);
    let buf = '';
    const done = (r) => {
      c.destroy();
      resolve(r);
    };
    // The pid, as `hook --server` sends it: where the server looks first for the peer's process.
    c.on('connect', () => c.write(JSON.stringify({ agent: 'claude-code', input, pid: process.pid }) + '\n'));
    c.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) done({ ms: performance.now() - t0, answer: JSON.parse(buf.slice(0, buf.indexOf('\n'))) });
    });
    c.on('error', (e) => done({ ms: performance.now() - t0, error: e.code ?? e.message }));
    c.on('close', () => done({ ms: performance.now() - t0, error: 'closed' }));
  });
}

function post(port, token, body) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hook/claude-code',
        agent: false,
        headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        timeout: 30_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? { ms: performance.now() - t0 } : { ms: performance.now() - t0, error: `HTTP ${res.statusCode}` }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ ms: performance.now() - t0, error: e.code ?? e.message }));
    req.end(body);
  });
}

const pct = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
function summarise(results) {
  const ok = results.filter((r) => !r.error).map((r) => r.ms);
  ok.sort((a, b) => a - b);
  return {
    requests: results.length,
    failed: results.filter((r) => r.error).length,
    p50: pct(ok, 50),
    p99: pct(ok, 99),
    max: ok[ok.length - 1] ?? NaN,
    pastDeadline: results.filter((r) => r.ms > DEADLINE_S * 1000).length,
    errors: [...new Set(results.filter((r) => r.error).map((r) => r.error))],
  };
}

async function loadPhase() {
  const end = performance.now() + SECONDS * 1000;
  const others = [];
  const slow = [];
  const client = async (i) => {
    for (let n = i; performance.now() < end; n++) others.push(await askSocket(event(TYPICAL[n % TYPICAL.length])));
  };
  const slowClient = async () => {
    while (performance.now() < end) slow.push(await askSocket(event(SLOW)));
  };
  await Promise.all([slowClient(), ...Array.from({ length: CLIENTS }, (_, i) => client(i))]);
  const levels = {};
  for (const r of slow) {
    const reason = r.answer ? (JSON.parse(r.answer.stdout).hookSpecificOutput?.permissionDecisionReason ?? '') : r.error;
    const key = /deadline/.test(reason) ? 'ask (deadline)' : /expansion-limit/.test(reason) ? 'ask (expansion-limit)' : reason;
    levels[key] = (levels[key] ?? 0) + 1;
  }
  return { others: summarise(others), slow: { ...summarise(slow), answers: levels } };
}

/** The attacker: a process holding `n` idle connections, reopening each one the server closes. */
function startFlood(port, n) {
  const script = `const net=require('net');let open=0,closed=0;const go=()=>{const s=net.createConnection(${port},'127.0.0.1');s.on('error',()=>{});s.once('connect',()=>{if(++open===${n})console.log('flooding')});s.once('close',()=>{closed++;setTimeout(go,1)})};for(let i=0;i<${n};i++)go();process.on('SIGTERM',()=>{console.log('closed '+closed);process.exit(0)})`;
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const child = spawn(process.execPath, ['-e', script], { ...asOther, cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return {
    child,
    uid: asOther.uid ?? process.getuid?.(),
    ready: async () => {
      for (let i = 0; i < 1200 && !out.includes('flooding'); i++) await new Promise((r) => setTimeout(r, 50));
      return out.includes('flooding');
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return Number(/closed (\d+)/.exec(out)?.[1] ?? NaN);
    },
  };
}

async function floodPhase(server) {
  const flood = startFlood(server.port, FLOOD);
  const ready = await flood.ready();
  const results = [];
  const socketResults = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all([
    (async () => {
      while (performance.now() < end) results.push(await post(server.port, server.token, event(TYPICAL[results.length % TYPICAL.length])));
    })(),
    (async () => {
      while (performance.now() < end) socketResults.push(await askSocket(event(TYPICAL[socketResults.length % TYPICAL.length])));
    })(),
  ]);
  const closedByServer = await flood.stop();
  return { attackerUid: flood.uid, connections: FLOOD, reachedFlood: ready, closedByServer, http: summarise(results), socket: summarise(socketResults) };
}

const f = (ms) => (Number.isFinite(ms) ? ms.toFixed(1) : '-');
const row = (name, s) =>
  `${name.padEnd(40)} ${String(s.requests).padStart(7)} ${String(s.failed).padStart(6)} ${f(s.p50).padStart(8)} ${f(s.p99).padStart(8)} ${f(s.max).padStart(8)} ${String(s.pastDeadline).padStart(6)}`;

/** Both phases against one server; the figures (bench/run.mjs keeps them as `serveLoad`). */
export async function measureServeLoad() {
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage: { start: loadavg()[0] },
    seconds: SECONDS,
    clients: CLIENTS,
    deadlineSeconds: DEADLINE_S,
    slowCommandBytes: SLOW.length,
  };
  makeFixture();
  let server;
  try {
    server = await startServer();
    // One request per thread first, so start-up is not counted as load.
    await Promise.all(Array.from({ length: 4 }, () => askSocket(event('git status'))));
    process.stderr.write(`serve load: ${CLIENTS} clients + 1 slow, ${SECONDS} s\n`);
    results.load = await loadPhase();
    process.stderr.write(`serve flood: ${FLOOD} idle connections, ${SECONDS} s\n`);
    results.flood = await floodPhase(server);
    results.loadAverage.end = loadavg()[0];
  } finally {
    if (server && server.child.exitCode === null) {
      // Removed only once the server has exited: the launcher writes its code cache under HOME at exit.
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(TMP, { recursive: true, force: true });
  }
  return results;
}

export function printServeLoad(results) {
  const { load, flood } = results;
  console.log(
    `\nshellgate serve under load (${results.cpus} cores, load average ${results.loadAverage.start.toFixed(1)} → ${results.loadAverage.end.toFixed(1)}; deadline ${results.deadlineSeconds} s)`,
  );
  console.log(
    `${'ms'.padEnd(40)} ${'reqs'.padStart(7)} ${'failed'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'>dl'.padStart(6)}`,
  );
  console.log(row(`load: ${results.clients} clients, typical commands`, load.others));
  console.log(row(`load: the slow command (${results.slowCommandBytes} B)`, load.slow));
  console.log(`      slow answers: ${JSON.stringify(load.slow.answers)}`);
  console.log(row(`flood: authenticated HTTP client`, flood.http));
  console.log(row(`flood: socket client`, flood.socket));
  console.log(
    `      flood: uid ${flood.attackerUid}, ${flood.connections} connections held${flood.reachedFlood ? '' : ' (never all open at once)'}, ${flood.closedByServer} closed by the server`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await measureServeLoad();
  printServeLoad(results);
  mkdirSync(new URL('bench/results/', ROOT), { recursive: true });
  let name = `bench/results/serve-load-${results.date.slice(0, 10)}.json`;
  for (let n = 2; existsSync(new URL(name, ROOT)); n++) name = `bench/results/serve-load-${results.date.slice(0, 10)}-${n}.json`;
  writeFileSync(new URL(name, ROOT), JSON.stringify(results, null, 2) + '\n');
  console.log(`written: ${name}`);
}
