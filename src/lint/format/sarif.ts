/**
 * `--format sarif`: SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps). Every rule is
 * listed in `tool.driver.rules` with its full description, help and a link into the README; each
 * result carries `partialFingerprints` so an alert keeps its identity while code moves.
 */
import { pathToFileURL } from 'node:url';
import type { RuleInfo } from '../rule-catalog.js';
import type { FileResult } from '../types.js';

/** Where a rule is explained, by where it comes from. */
export const README_URL = 'https://github.com/shellgate/shellgate/blob/main/README.md';
export const HELP_ANCHOR: Record<RuleInfo['source'], string> = { builtin: '#guard-rules', user: '#guard-rules', core: '#findings', lint: '#linter' };

const SARIF_LEVEL = { deny: 'error', ask: 'warning', allow: 'note' } as const;
/** GitHub ranks security alerts by this (critical ≥ 9, high ≥ 7, medium ≥ 4). */
const SEVERITY = { deny: '8.0', ask: '5.0', allow: '2.0' } as const;

type Lvl = keyof typeof SARIF_LEVEL;
const lvl = (l: string): Lvl => (l === 'deny' || l === 'ask' ? l : 'allow');

function ruleDescriptor(r: RuleInfo) {
  const short = r.message.replace('{detail}', '…');
  const help = [r.rationale, r.safer ? `Safer: ${r.safer}` : '', r.attack?.length ? `MITRE ATT&CK: ${r.attack.join(', ')}` : ''].filter(Boolean);
  return {
    id: r.id,
    name: r.id,
    shortDescription: { text: short },
    fullDescription: { text: r.rationale },
    help: { text: help.join('\n\n'), markdown: help.join('\n\n') + `\n\n\`shellgate rules ${r.id}\` shows this rule with its examples.` },
    helpUri: README_URL + HELP_ANCHOR[r.source],
    defaultConfiguration: { level: SARIF_LEVEL[lvl(r.level)] },
    properties: {
      tags: ['security', 'shell', r.category, ...(r.attack ?? []).map((t) => `external/mitre/attack/${t}`)],
      'security-severity': SEVERITY[lvl(r.level)],
      precision: 'high',
    },
  };
}

export interface SarifOptions {
  version: string;
  /** The directory file paths are relative to (the current directory). */
  baseDir: string;
}

export function formatSarif(results: readonly FileResult[], rules: readonly RuleInfo[], opts: SarifOptions): string {
  const catalog = [...rules];
  const index = new Map<string, number>();
  catalog.forEach((r, i) => index.set(r.id, i));
  const out = [];
  for (const r of results)
    for (const f of r.findings) {
      if (!index.has(f.rule)) {
        index.set(f.rule, catalog.length);
        catalog.push({ id: f.rule, category: f.category, level: f.level, message: f.message, rationale: f.message, source: 'user' });
      }
      const src = r.lines[f.line];
      const absolute = f.file.startsWith('/');
      out.push({
        ruleId: f.rule,
        ruleIndex: index.get(f.rule)!,
        level: SARIF_LEVEL[lvl(f.level)],
        message: { text: f.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: absolute ? { uri: pathToFileURL(f.file).href } : { uri: encodeURI(f.file), uriBaseId: 'SRCROOT' },
              region: {
                startLine: f.line,
                startColumn: f.column,
                endLine: f.endLine,
                endColumn: Math.max(f.endColumn, f.endLine === f.line ? f.column : 1),
                ...(src !== undefined ? { snippet: { text: src } } : {}),
              },
            },
          },
        ],
        partialFingerprints: { 'shellgate/v1': f.fingerprint },
        properties: { category: f.category, command: f.command, origin: f.origin, kind: f.kind, ...(f.attack ? { attack: f.attack } : {}) },
      });
    }
  const base = pathToFileURL(opts.baseDir).href;
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'shellgate',
            version: opts.version,
            semanticVersion: opts.version,
            informationUri: README_URL,
            rules: catalog.map(ruleDescriptor),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: base.endsWith('/') ? base : base + '/' } },
        columnKind: 'utf16CodeUnits',
        results: out,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2);
}
