/** The finding catalog moved to the foundation (src/findings/catalog.ts); this name is kept for importers. */
export { CORE_FINDINGS, STRUCTURE_FINDINGS, findingsWith } from '../findings/catalog.js';
export type { FindingMeta, CoreFindingId, FindingExample, FindingFlag } from '../findings/catalog.js';
