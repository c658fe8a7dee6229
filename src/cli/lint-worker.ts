/** A `lint --jobs` worker: one analyser; lints the batches of files the main thread sends. */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalyzerOptions } from '../analyzer.js';
import { lintAnalyzer } from '../lint/analyzer-for-lint.js';
import type { LintOptions } from '../lint/lint-file.js';
import { lintFound } from '../lint/run.js';
import type { FoundFile } from '../lint/files.js';
import type { FileResult } from '../lint/types.js';

export interface WorkerSetup {
  analyzer: AnalyzerOptions;
  lint: LintOptions;
}
export interface Batch {
  items: { index: number; file: FoundFile; shown: string }[];
}
export interface BatchResult {
  results: { index: number; result: FileResult | null }[];
}

const setup = workerData as WorkerSetup;
const analyzer = await lintAnalyzer(setup.analyzer);
parentPort!.on('message', (batch: Batch | null) => {
  if (batch === null) {
    parentPort!.close();
    return;
  }
  const out: BatchResult = { results: batch.items.map((it) => ({ index: it.index, result: lintFound(analyzer, it.file, it.shown, setup.lint) })) };
  parentPort!.postMessage(out);
});
parentPort!.postMessage('ready');
