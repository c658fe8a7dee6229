/** Walk one command line with the walker alone (no specs, no operations): what the walk records. */
import { parseBash } from '../../src/syntax/parser/index.js';
import { LineWalker } from '../../src/walk/walker.js';
import { identity } from '../../src/walk/source-frame.js';
import { newScope } from '../../src/walk/scope.js';
import { topLevelContext } from '../../src/walk/types.js';

export const HOME = '/home/user';

export function walkLine(source: string, cwd: string): LineWalker {
  const walker = new LineWalker({
    home: HOME,
    env: { HOME },
    cwd,
    parse: parseBash,
    maxScriptDepth: 4,
    maxFunctionWalks: 64,
    maxWalkSteps: 5_000,
    readSource: () => null,
    shell: 'bash',
    commandStart: () => null,
  });
  walker.walkScript(parseBash(source).script, { source, map: identity, scriptDepth: 0 }, topLevelContext(), newScope(cwd));
  return walker;
}
