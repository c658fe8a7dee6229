#!/usr/bin/env node
// The effect oracle's full run (issue 27): every command of every corpus that shellgate allows
// runs for real under strace in the hostile-repository sandbox; prints commands run, violations
// and programs not installed, per corpus. The test is test/effect-oracle/effect-oracle.test.ts;
// this only runs it in full mode.
//
//   node scripts/effect-oracle.mjs [--workers N] [--out violations.json] [--only violations.json]
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const env = { ...process.env, EFFECT_ORACLE: 'full' };
if (opt('--workers')) env.EFFECT_ORACLE_WORKERS = opt('--workers');
if (opt('--out')) env.EFFECT_ORACLE_OUT = resolve(opt('--out'));
// --only REPORT: run again only the commands an earlier --out report found violating
if (opt('--only')) env.EFFECT_ORACLE_ONLY = resolve(opt('--only'));
const r = spawnSync('npx', ['vitest', 'run', 'test/effect-oracle/effect-oracle.test.ts', '-t', 'every allowed command'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
