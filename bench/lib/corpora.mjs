// The command corpora the bench times: the project's own cases (corpus/*.jsonl), a deterministic
// synthetic corpus, and the shared NL2Bash and tldr corpora when ../shared/corpus is present.
import { projectCommands, sharedCommands } from '../../scripts/lib/corpora.mjs';

/** @returns {Record<string, string[]>} name → commands, in a fixed order (nl2bash first: the targets are on it). */
export function loadCorpora({ syntheticSize = 100_000 } = {}) {
  const corpora = {};
  for (const name of ['nl2bash', 'tldr']) {
    const commands = sharedCommands(name);
    if (commands !== null) corpora[name] = commands;
  }
  corpora.project = projectCommands();
  corpora.synthetic = synthetic(syntheticSize);
  return corpora;
}

/** Deterministic realistic commands: pipelines, chains, substitutions, wrappers, heredocs, long argument lists. */
export function synthetic(n) {
  let seed = 12345;
  const rnd = (k) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
  const pick = (xs) => xs[rnd(xs.length)];
  const simple = [
    'ls -la src',
    'cat README.md',
    'grep -rn TODO src',
    'git status',
    'git log --oneline -n 20',
    'npm test',
    'rm -rf build',
    'mkdir -p dist',
    'sed -i s/a/b/ f.txt',
    'find . -name "*.ts"',
    'curl -s https://example.com/api',
    'tar czf out.tgz src',
    'echo "$HOME/x"',
    'wc -l src/a.ts',
    'head -n 5 package.json',
    'python3 script.py --flag',
    'docker ps -a',
    'kubectl get pods',
  ];
  const wrap = [(c) => c, (c) => `sudo ${c}`, (c) => `timeout 9 ${c}`, (c) => `bash -c '${c.replace(/'/g, '')}'`, (c) => `env A=1 ${c}`, (c) => `nohup ${c} &`];
  const out = [];
  for (let i = 0; i < n; i++) {
    const parts = Array.from({ length: 1 + rnd(4) }, () => pick(wrap)(pick(simple)));
    let c = parts.join(pick([' | ', ' && ', '; ', ' || ']));
    const r = rnd(10);
    if (r === 0) c = `echo $(${pick(simple)}) && ${c}`;
    if (r === 1) c = `cat <<EOF | grep x\nline $(date)\nEOF\n${c}`;
    if (r === 2) c = `${pick(simple)} ${Array.from({ length: 30 }, (_, k) => `arg${k}`).join(' ')}`;
    out.push(c);
  }
  return out;
}
