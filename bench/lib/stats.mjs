// Summaries of timing samples. Percentiles are nearest-rank on the sorted samples, so a p99 is a
// time one command in a hundred really took, not an interpolation between two.

/** @param {ArrayLike<number>} samples */
export function summarize(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  let sum = 0;
  for (const x of s) sum += x;
  return { n: s.length, mean: sum / s.length, median: at(0.5), p90: at(0.9), p99: at(0.99), max: s[s.length - 1] };
}

/** @param {number[]} xs */
export function median(xs) {
  return summarize(xs).median;
}
