// Imports follow the pipeline: a folder may import its own layer and the layers before it, never a
// later one, and no file may take part in an import cycle. `npm test` runs this (`npm run deps`,
// which is `depcruise src --output-type err`) and fails on any violation it prints.
//
// syntax → expand → programs → walk → ops/paths → guard → verdict → (the analyser) → agents →
// policy → auto → audit → lint → hook → serve → cli → index.ts. The foundation (errors, own-property
// helpers, the stage clock, reading a config file, the finding catalog) sits below them all.

/** Layers in pipeline order; each is a list of path patterns (anchored at the repository root). */
const LAYERS = [
  ['foundation', ['^src/(errors|own|stage-clock|config-file)\\.ts$', '^src/findings/']],
  ['syntax', ['^src/syntax/']],
  ['expand', ['^src/expand/']],
  ['programs', ['^src/programs/']],
  ['walk', ['^src/walk/']],
  ['ops-paths', ['^src/ops/', '^src/paths/']],
  ['guard', ['^src/guard/']],
  ['verdict', ['^src/verdict/']],
  ['analyzer', ['^src/(analyzer|analyzer-options|analyzer-context|analyzer-front-ends|analyzer-stages|verdict-cache)\\.ts$']],
  // What shellgate knows about each agent (its tool tables, mode names, settings files, hook wire
  // format) imports nothing but the foundation; the gate reads the tool tables, so it comes first.
  ['agents', ['^src/agents/']],
  ['policy', ['^src/policy/']],
  ['auto', ['^src/auto/']],
  ['audit', ['^src/audit/']],
  // The linter reads files of many kinds and hands their shell code to the analyser.
  ['lint', ['^src/lint/']],
  ['hook', ['^src/hook/']],
  ['serve', ['^src/serve/']],
  ['cli', ['^src/cli/']],
  // The browser build's engine and the shims that stand in for Node there.
  ['playground', ['^src/playground/']],
  ['index', ['^src/index\\.ts$']],
];

const either = (patterns) => patterns.join('|');

const layerRules = LAYERS.slice(0, -1).map(([name, from], i) => ({
  name: `layer-${name}`,
  comment: `${name} may not import a later layer (${LAYERS.slice(i + 1)
    .map(([n]) => n)
    .join(', ')})`,
  severity: 'error',
  from: { path: either(from) },
  to: { path: either(LAYERS.slice(i + 1).flatMap(([, p]) => p)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle makes the order of module initialisation matter and hides the layering',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'in-a-layer',
      comment: 'every source file belongs to a layer (add its folder to LAYERS)',
      severity: 'error',
      from: { path: '^src/', pathNot: either(LAYERS.flatMap(([, p]) => p)) },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
