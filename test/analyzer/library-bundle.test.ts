/**
 * The published library is the ES module bundle `dist/lib/shellgate.mjs` (package.json "exports"),
 * not the TypeScript the other tests import: it must load and work in plain Node, code it loads
 * lazily included. Bundled CommonJS packages (the YAML parser a `.yarnrc.yml` is read with) call
 * `require`, which an ES module does not have unless the bundle provides one. Run in a child
 * `node`, since vitest's module runner would lend the bundle a `require` of its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BUNDLE = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'lib', 'shellgate.mjs')).href;
const ws = mkdtempSync(join(tmpdir(), 'sg-bundle-'));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

/** The level and rules the bundle gives `command` in the workspace, from a plain node process. */
function judge(command: string): { level: string; rules: string[] } {
  const script = `
    const lib = await import(${JSON.stringify(BUNDLE)});
    const a = await lib.createAnalyzer({ cacheSize: 0 });
    const v = a.analyze(${JSON.stringify(command)}, { cwd: ${JSON.stringify(ws)}, workspaceRoots: [${JSON.stringify(ws)}], home: '/home/user', env: { USER: 'user' } });
    console.log(JSON.stringify({ level: v.level, rules: v.findings.map((f) => f.rule) }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { level: string; rules: string[] };
}

describe('the library bundle, in plain node', () => {
  it("reads a repository's .yarnrc.yml with its bundled YAML parser, and asks when it names code", () => {
    writeFileSync(join(ws, 'package.json'), '{"name":"x"}\n');
    expect(judge('yarn --version').level).toBe('allow');
    writeFileSync(join(ws, '.yarnrc.yml'), '{ yarnPath: .yarn/evil.cjs }\n');
    const v = judge('yarn --version');
    expect(v.level).toBe('ask');
    expect(v.rules).toContain('repo-code');
  });
});
