#!/usr/bin/env node
'use strict';
/**
 * The `shellgate` command. It runs the bundled CLI (dist/cli/shellgate.cjs) through vm.Script with a
 * V8 code cache, so a hook call does not compile 700 KB of JavaScript each time (Node 20 has no
 * module compile cache of its own). The cache lives in $XDG_CACHE_HOME/shellgate (0700) and is
 * used only when it belongs to this user and nobody else can write it: it is code this process
 * runs. V8 itself rejects a cache made from another source, Node or flags.
 * SHELLGATE_NO_CODE_CACHE=1 turns it off.
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const vm = require('node:vm');
const v8 = require('node:v8');
const Module = require('node:module');

const bundle = path.join(__dirname, '..', 'dist', 'cli', 'shellgate.cjs');
const sub = process.argv[2];
// One decision per process: tiering WASM up costs more than it saves, and Node waits at exit for
// the background compile. Set before anything is compiled, so the code cache sees the same flags.
const argv = process.argv;
// `check COMMAND` decides one command; `check < file` may decide thousands, where tier-up pays.
const oneCommand = !argv.includes('--jobs') && (argv.includes('--') || !(argv[argv.length - 1] || '-').startsWith('-'));
const oneShot = sub === 'hook' || sub === 'explain' || sub === 'init' || (sub === 'check' && argv.length > 3 && oneCommand);
if (oneShot) v8.setFlagsFromString('--liftoff-only');

function cacheDir() {
  if (process.env.SHELLGATE_NO_CODE_CACHE === '1') return null;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'shellgate');
}

/** A directory (and file) we may trust: ours, and writable by nobody else. */
function trusted(p) {
  try {
    const s = fs.lstatSync(p);
    return !s.isSymbolicLink() && (typeof process.getuid !== 'function' || s.uid === process.getuid()) && (s.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * A failure of the launcher itself (the bundle missing or truncated mid-upgrade, a bundle that
 * does not compile): as a hook, every agent reads exit 2 with the reason on stderr as "blocked",
 * and any other failure as "go ahead", so a hook blocks. Elsewhere it is an internal error (70).
 */
function startFailed(error) {
  const why =
    error && error.code === 'ENOENT'
      ? `${bundle} is missing`
      : `${bundle} cannot be run (${error && error.message ? error.message.split('\n')[0] : String(error)})`;
  process.stderr.write(
    `shellgate: could not start: ${why}; reinstall shellgate or run \`npm run build\`${sub === 'hook' ? ' (the tool call is blocked)' : ''}\n`,
  );
  process.exit(sub === 'hook' ? 2 : 70);
}

let source;
let stat;
try {
  // The bundle keeps main.js's `#!` line, which only a module loader skips.
  source = fs.readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  stat = fs.statSync(bundle);
} catch (error) {
  startFailed(error);
}
const dir = cacheDir();
// One cache per build of the bundle and Node, and per flag set (Liftoff-only runs and tier-up runs
// compile differently; V8 would reject the other's cache).
const identity = `${process.version}-${process.arch}-${stat.size}-${Math.floor(stat.mtimeMs)}`.replace(/[^A-Za-z0-9.-]/g, '_');
const file = dir && path.join(dir, `code-${identity}-${oneShot ? 'l' : 't'}.bin`);
let cachedData;
if (file && trusted(dir) && trusted(file)) {
  try {
    cachedData = fs.readFileSync(file);
  } catch {
    cachedData = undefined;
  }
}
let script;
try {
  script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
} catch (error) {
  startFailed(error);
}
if (file && (cachedData === undefined || script.cachedDataRejected)) {
  // Written at exit, after the run compiled the functions it needed: the next run starts warm.
  process.once('exit', () => {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!trusted(dir)) return;
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, file);
      // Caches of older builds go; the other flag set's cache of this build stays.
      for (const f of fs.readdirSync(dir))
        if (f.startsWith('code-') && !f.startsWith(`code-${identity}-`) && !f.endsWith('.tmp')) fs.rmSync(path.join(dir, f), { force: true });
    } catch {
      // A cache that cannot be written only costs time.
    }
  });
}
try {
  const run = script.runInThisContext();
  const mod = { exports: {} };
  run.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
} catch (error) {
  // what the bundle's top level throws before its own error handling is installed
  startFailed(error);
}
