// The per-stage table (where a verdict's time goes) comes from bench/stages.mjs, which its own
// author keeps in step with the pipeline's stages. This only finds it, calls it and formats what
// it returns: `async stageTable(commands, options)` → rows (plain objects, one per stage, with the
// same keys; or lines of text). Without the file the table is skipped with a note.
import { existsSync } from 'node:fs';

const STAGES = new URL('../stages.mjs', import.meta.url);

/**
 * @param {string[]} commands
 * @param {object} options passed through to stageTable (the analysis context, the corpus name)
 * @returns {Promise<{ rows: unknown[] } | { skipped: string }>}
 */
export async function runStageTable(commands, options) {
  if (!existsSync(STAGES)) return { skipped: 'bench/stages.mjs is not there yet' };
  try {
    const { stageTable } = await import(STAGES.href);
    if (typeof stageTable !== 'function') return { skipped: 'bench/stages.mjs exports no stageTable function' };
    const rows = await stageTable(commands, options);
    return { rows: Array.isArray(rows) ? rows : [rows] };
  } catch (e) {
    return {
      skipped: `bench/stages.mjs failed: ${String(e?.stack ?? e)
        .split('\n')
        .slice(0, 3)
        .join(' | ')}`,
    };
  }
}

/** Rows as text lines: objects as aligned columns under their keys, anything else as it prints. */
export function formatRows(rows) {
  if (!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) return rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 1)) : v === undefined ? '' : String(v));
  const cells = rows.map((r) => keys.map((k) => cell(r[k])));
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i].length)));
  const line = (cs) => cs.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(keys), ...cells.map(line)];
}
