// The compact table on stdout: every figure of one run, with issue 13's targets beside them.
import { formatRows } from './stage-table.mjs';

const num = (x, d = 1) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : 'n/a');
/** Fewer decimals as numbers grow, so columns stay narrow. */
const auto = (x) => (typeof x !== 'number' || !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const row = (first, width, cells, cellWidth = 9) => first.padEnd(width) + cells.map((c) => String(c).padStart(cellWidth)).join('');

export function printReport(r, log = console.log) {
  log(
    `shellgate bench — ${r.machine.cpus} cores (${r.machine.model}), node ${r.node}, ${r.date}, load average ${num(r.loadAverage.start)} at the start, ${num(r.loadAverage.end)} at the end`,
  );

  log('\nfull verdict per command, µs (analyser with cacheSize 0; second pass over each corpus, after a first that compiles and loads):');
  log(row('corpus', 11, ['commands', 'mean', 'median', 'p90', 'p99', 'max', 'cmds/s', '1st mean', '1st p99', 'cached']));
  for (const [name, c] of Object.entries(r.corpora))
    log(
      row(name, 11, [
        c.commands,
        auto(c.mean),
        auto(c.median),
        auto(c.p90),
        auto(c.p99),
        auto(c.max),
        c.perSecond,
        auto(c.firstPass.mean),
        auto(c.firstPass.p99),
        auto(c.warmCacheUs),
      ]),
    );

  const cmp = r.comparison;
  const full = cmp.rows['shellgate full verdict'];
  log(`\nthe same ${cmp.commands} ${cmp.corpus} commands, one call each, µs (each after a warm-up on ${cmp.warmup}):`);
  log(row('', 38, ['mean', 'median', 'p90', 'p99', 'max']) + '   ÷ verdict: mean, median');
  for (const [name, t] of Object.entries(cmp.rows)) {
    const label = t.label ?? name;
    if (t.note) log(`${label.padEnd(38)}      n/a  (${t.note})`);
    else
      log(
        row(label, 38, [auto(t.mean), auto(t.median), auto(t.p90), auto(t.p99), auto(t.max)]) +
          (t === full ? '' : `${num(t.mean / full.mean, 2)}×`.padStart(11) + `${num(t.median / full.median, 2)}×`.padStart(9)),
      );
  }

  const sb = r.sideBySide;
  if (sb) {
    const base = sb.rows['shellgate full verdict'];
    log(`\nside by side (tinybench: each task is one pass over the same ${sb.batch} ${cmp.corpus} commands), µs per command:`);
    for (const [name, t] of Object.entries(sb.rows)) {
      if ('note' in t) log(`${name.padEnd(38)}      n/a`);
      else
        log(
          row(name, 38, [auto(t.usPerCommand), `±${num(t.rme, 1)}%`]) +
            (t === base || !base?.usPerCommand ? '' : `${num(t.usPerCommand / base.usPerCommand, 2)}× the verdict`.padStart(22)),
        );
    }
  }

  log('\nwhere the time goes, stage by stage (bench/stages.mjs):');
  if (r.stages.skipped) log(`  skipped: ${r.stages.skipped}`);
  else for (const l of formatRows(r.stages.rows)) log(`  ${l}`);

  log(
    `\nscaling: one full verdict of each shape (maxInputLength ${r.scalingMaxInputLength / 2 ** 20} MiB, limit ${r.scalingLimitSeconds} s a size, own process per shape):`,
  );
  const labels = r.scaling[0]?.sizes.map((s) => s.label) ?? [];
  const cell = (s, pick) => ('ms' in s ? pick(s) : s.timedOut ? `>${s.limitSeconds}s` : '—');
  log(row('ms', 26, labels) + '   ' + row('ns per byte', 12, labels, 8));
  for (const s of r.scaling)
    log(
      row(
        s.shape,
        26,
        s.sizes.map((x) => cell(x, (y) => auto(y.ms))),
      ) +
        '   ' +
        row(
          '',
          12,
          s.sizes.map((x) => cell(x, (y) => num(y.nsPerByte, 0))),
          8,
        ),
    );
  const failed = r.scaling.flatMap((s) =>
    s.sizes.filter((x) => x.failed && !x.failed.startsWith('not tried')).map((x) => `${s.shape} ${x.label}: ${x.failed}`),
  );
  for (const f of failed) log(`  failed: ${f}`);

  const c = r.coldStart;
  log(`\ncold start, fresh processes, median of ${c.runs}:`);
  log(
    `  import + createAnalyzer + first verdict, in-process   ${num(c.inProcessMs, 0)} ms   (WebAssembly compiled: ${c.wasmCompilations === 0 ? 'none' : `${c.wasmCompilations} times`})`,
  );
  log(`  ${c.cliCommand}   ${num(c.cliMs, 0)} ms = ${num(c.cliOverNode, 2)} × node -e 0 (${num(c.nodeMs, 0)} ms)`);

  if (r.memory) {
    const m = r.memory;
    log(
      `\nmemory over ${m.analyses.toLocaleString('en')} distinct analyses (${num(m.seconds, 0)} s, cache 10,000): heap ${num(m.heapBeforeMB)} → ${num(m.heapAfterMB)} MB, RSS ${num(m.rssBeforeMB)} → ${num(m.rssAfterMB)} MB`,
    );
  }

  log('\nissue 13 targets:');
  for (const t of r.targets) {
    const value = t.display ?? (t.value === null ? 'n/a' : `${auto(t.value)}${t.unit ? ' ' + t.unit : ''}`);
    const mark = t.met === null ? '  ' : t.met ? 'ok' : 'no';
    log(
      `  ${mark}  ${t.label.padEnd(48)} ${value.padStart(16)}   target ${t.op.replace('<=', '≤').replace('>=', '≥')} ${t.target}${t.unit ? ' ' + t.unit : ''}`,
    );
  }
  log(`\nrun took ${num(r.seconds, 0)} s`);
}
