// Issue 13's speed targets, each beside the figure it judges. Printed, never asserted: a bench on a
// shared machine informs, it does not fail a build.

/**
 * @typedef {{ label: string, value: number | null, unit: string, op: '<=' | '>=' | '<', target: number, met: boolean | null, display?: string }} TargetCheck
 * value null: not measured in this run (n/a), and met null unless `display` says why it is a miss.
 */

function check(label, value, unit, op, target) {
  const ok =
    value === null || value === undefined || Number.isNaN(value) ? null : op === '<=' ? value <= target : op === '>=' ? value >= target : value < target;
  return { label, value: ok === null ? null : value, unit, op, target, met: ok };
}

/** @returns {TargetCheck[]} */
export function checkTargets(results) {
  const cmp = results.comparison;
  const verdict = cmp?.rows['shellgate full verdict'];
  const ratio = (name) => (verdict && cmp.rows[name]?.mean ? cmp.rows[name].mean / verdict.mean : null);
  const nl = results.corpora.nl2bash;
  const out = [
    check('NL2Bash full verdict, mean', nl?.mean ?? null, 'µs', '<=', 25),
    check('NL2Bash full verdict, median', nl?.median ?? null, 'µs', '<=', 15),
    check('NL2Bash full verdict, p99', nl?.p99 ?? null, 'µs', '<=', 150),
    check('bash-parser parse ÷ full verdict', ratio('bash-parser parse'), '×', '>=', 10),
    check('cc-safety-net checkCommand ÷ full verdict', ratio('cc-safety-net checkCommand'), '×', '>=', 40),
    check('full verdict ÷ shell-quote tokenise', ratio('shell-quote tokenise') ? 1 / ratio('shell-quote tokenise') : null, '×', '<=', 3),
  ];
  for (const s of results.scaling) {
    const mb = s.sizes.find((x) => x.label === '1 MB');
    const c = check(`1 MB ${s.shape}`, mb?.ms ?? null, 'ms', '<', 1000);
    // Over the time limit (at 1 MB or a smaller size, so 1 MB was not tried) is a miss, not n/a.
    const overLimit = s.sizes.find((x) => x.timedOut);
    if (c.value === null && overLimit) out.push({ ...c, met: false, display: `> ${overLimit.limitSeconds} s at ${overLimit.label}` });
    else out.push(c);
  }
  const cold = results.coldStart;
  out.push(check('cold start in-process (import → first verdict)', cold.inProcessMs, 'ms', '<=', 40));
  out.push({
    ...check('WebAssembly compilations on the default path', cold.wasmCompilations, '', '<=', 0),
    display: cold.wasmCompilations === 0 ? 'none' : String(cold.wasmCompilations),
  });
  out.push(check('one-shot CLI ÷ node -e 0', cold.cliOverNode, '×', '<=', 1.6));
  return out;
}
