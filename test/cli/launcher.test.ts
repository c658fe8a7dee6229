/**
 * bin/shellgate.cjs, the installed command: it runs the bundled CLI with a V8 code cache. The
 * answers are the same as dist/cli/main.js; the cache is private, trusted only when it is ours
 * and writable by nobody else, and a bad cache never changes an answer.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'shellgate.cjs');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

function run(entry: string, args: string[], input: string, cacheHome: string) {
  return spawnSync(process.execPath, [entry, ...args], { input, encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
}

const payload = (command: string, cwd: string) =>
  JSON.stringify({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

describe('bin/shellgate.cjs', () => {
  it('answers exactly as dist/cli/main.js, with and without a code cache, and keeps the cache private', () => {
    const cache = mkdtempSync(join(tmpdir(), 'sg-cache-'));
    const ws = mkdtempSync(join(tmpdir(), 'sg-ws-'));
    for (const command of ['ls', 'git push origin main', 'rm -rf ~']) {
      const expected = run(MAIN, ['hook', 'claude-code'], payload(command, ws), cache);
      for (let i = 0; i < 2; i++) {
        const got = run(BIN, ['hook', 'claude-code'], payload(command, ws), cache);
        expect({ out: got.stdout, code: got.status }, `${command} run ${i}`).toEqual({ out: expected.stdout, code: expected.status });
      }
    }
    const dir = join(cache, 'shellgate');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir).filter((f) => f.startsWith('code-'));
    expect(files).toHaveLength(1);
    expect(statSync(join(dir, files[0])).mode & 0o777).toBe(0o600);
    expect(run(BIN, ['check', '--', 'cat README.md'], '', cache).status).toBe(0);
  });

  it('ignores a cache directory others can write, and survives a corrupt cache file', () => {
    const open = mkdtempSync(join(tmpdir(), 'sg-cache-'));
    mkdirSync(join(open, 'shellgate'));
    chmodSync(join(open, 'shellgate'), 0o777);
    const ws = mkdtempSync(join(tmpdir(), 'sg-ws-'));
    const r = run(BIN, ['hook', 'claude-code'], payload('rm -rf ~', ws), open);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(readdirSync(join(open, 'shellgate'))).toEqual([]);

    const bad = mkdtempSync(join(tmpdir(), 'sg-cache-'));
    run(BIN, ['hook', 'claude-code'], payload('ls', ws), bad);
    const dir = join(bad, 'shellgate');
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file), Buffer.alloc(4096, 7), { mode: 0o600 });
    const again = run(BIN, ['hook', 'claude-code'], payload('rm -rf ~', ws), bad);
    expect(JSON.parse(again.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(existsSync(join(dir, file))).toBe(true);
    expect(statSync(join(dir, file)).size).not.toBe(4096); // rejected by V8 and written afresh
  });
});

describe('bin/shellgate.cjs when it cannot start', () => {
  // A copy of the launcher beside a bundle that is missing, cut short (an upgrade under way) or
  // throws as it loads. Agents read exit 2 with a reason on stderr as "blocked", anything else
  // as "go ahead": a hook must block, other commands fail as an internal error (70).
  const root = mkdtempSync(join(tmpdir(), 'sg-launcher-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const real = readFileSync(join(ROOT, 'dist', 'cli', 'shellgate.cjs'), 'utf8');
  const install = (name: string, bundle: string | null): string => {
    mkdirSync(join(root, name, 'bin'), { recursive: true });
    mkdirSync(join(root, name, 'dist', 'cli'), { recursive: true });
    copyFileSync(BIN, join(root, name, 'bin', 'shellgate.cjs'));
    if (bundle !== null) writeFileSync(join(root, name, 'dist', 'cli', 'shellgate.cjs'), bundle);
    return join(root, name, 'bin', 'shellgate.cjs');
  };
  const cases = {
    missing: install('missing', null),
    truncated: install('truncated', real.slice(0, Math.floor(real.length / 2))),
    throwing: install('throwing', "throw new Error('half-written module');"),
  };

  it.each(Object.entries(cases))('blocks a hook call when the bundle is %s, saying why', (_name, bin) => {
    const r = run(bin, ['hook', 'claude-code'], payload('rm -rf ~', root), join(root, 'cache'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^shellgate: could not start: .*shellgate\.cjs.*blocked/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const check = run(bin, ['check', '--', 'ls'], '', join(root, 'cache'));
    expect(check.status).toBe(70);
    expect(check.stderr).toMatch(/could not start/);
  });
});
