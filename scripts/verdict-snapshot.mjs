#!/usr/bin/env node
// Prints every verdict of every corpus, one line per command, so that a refactor can be shown to
// change nothing: run it before and after, then compare the two files.
//
//   node scripts/verdict-snapshot.mjs > before.tsv         (needs `npm run build` first)
//   node scripts/verdict-snapshot.mjs --compare before.tsv after.tsv
//
// A line holds what a user sees: the analyser's level, each finding (rule, level, span, message), each
// operation (kind, path or target, classes, program, host), and the decision of a gate with no
// settings in default mode and in the `auto-edit` and `plan` modes (level and deciding layer).
// The context is fixed (cwd /ws/project, home /home/user, no environment) so two runs agree.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { allCorpora } from './lib/corpora.mjs';

const CONTEXT = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };
const MODES = ['default', 'auto-edit', 'plan'];

function opText(o) {
  const where = o.path ?? o.target ?? '';
  const extra = [o.program && `prog=${o.program}`, o.host && `host=${o.host}`, o.dynamic && 'dyn'].filter(Boolean).join(',');
  return `${o.kind}:${where}${o.classes?.length ? `[${o.classes.join(',')}]` : ''}${extra ? `{${extra}}` : ''}`;
}

function findingText(f) {
  return `${f.rule}:${f.level}@${f.span.start}-${f.span.end}${f.command === undefined ? '' : `#${f.command}`}=${JSON.stringify(f.message)}`;
}

async function snapshot() {
  const lib = await import('../dist/lib/shellgate.mjs');
  const analyzer = await lib.createAnalyzer({ cacheSize: 0 });
  const gate = await lib.createGate({ analyzer: { cacheSize: 0 } });
  const out = [];
  for (const [corpus, commands] of Object.entries(allCorpora())) {
    commands.forEach((command, i) => {
      const v = analyzer.analyze(command, CONTEXT);
      const gates = MODES.map((mode) => {
        const d = gate.evaluate({ tool: 'shell', args: { command } }, { ...CONTEXT, mode });
        return `${d.level}/${d.layer}`;
      });
      const fields = [
        `${corpus}:${i}`,
        v.level,
        gates.join(' '),
        v.findings.map(findingText).join(' '),
        v.operations.map(opText).join(' '),
        v.commands.map((c) => [c.program ?? '?', ...c.args.map((a) => (a.dynamic ? '$' : '') + a.value)].join('\u241f')).join(' | '),
      ];
      out.push(fields.join('\t'));
    });
  }
  process.stdout.write(out.join('\n') + '\n');
}

function compare(a, b) {
  const left = readFileSync(a, 'utf8').split('\n');
  const right = readFileSync(b, 'utf8').split('\n');
  let differences = 0;
  const n = Math.max(left.length, right.length);
  for (let i = 0; i < n; i++) {
    if (left[i] === right[i]) continue;
    differences++;
    if (differences <= 50) console.log(`- ${left[i] ?? ''}\n+ ${right[i] ?? ''}`);
  }
  console.log(`${n} lines, ${differences} differ`);
  process.exitCode = differences === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
if (args[0] === '--compare' && args.length === 3) compare(args[1], args[2]);
else if (args.length === 0 && process.env.SHELLGATE_SNAPSHOT_CHILD) await snapshot();
else if (args.length === 0) {
  // Runs itself with stdout a pipe: a command such as `readlink /proc/self/fd/1` reads the
  // analyser's own stdout, which would otherwise differ between `> file`, a pipe and a terminal.
  const child = spawnSync(process.execPath, [process.argv[1]], {
    env: { ...process.env, SHELLGATE_SNAPSHOT_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 30,
  });
  writeSync(1, child.stdout);
  process.exitCode = child.status ?? 1;
} else {
  console.error('usage: verdict-snapshot.mjs [--compare BEFORE AFTER]');
  process.exitCode = 2;
}
