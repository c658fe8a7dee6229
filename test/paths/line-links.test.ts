import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PathClassifier } from '../../src/paths/classify.js';
import { LineLinks } from '../../src/paths/line-links.js';
import { HOME, walkLine } from '../helpers/walk-line.js';

const ws = realpathSync(mkdtempSync(join(tmpdir(), 'sg-line-links-')));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
const classifier = new PathClassifier({ home: HOME, workspaceRoots: [ws] });

/** What the `nth` command running `program` can meet, as `path kind target surely|maybe`. */
function seenBy(line: string, program: string, nth = 0): string[] {
  const walker = walkLine(line, ws);
  const links = new LineLinks(walker.lineLinks);
  const reader = walker.commands.filter((c) => c.program === program)[nth];
  return links.viewFor(reader, classifier).entries.map((e) => `${e.path.replace(ws, '.')} ${e.kind} ${e.target ?? '?'} ${e.certain ? 'surely' : 'maybe'}`);
}

describe('links made on the line, resolved for the commands after them', () => {
  it('places a link made before a command where the command can meet it, surely when it surely ran', () => {
    expect(seenBy('ln -s ~ h; rm -rf h/', 'rm')).toEqual([`./h symlink ${HOME} surely`]);
    expect(seenBy('cd sub && ln -s /etc e; cat e', 'cat')).toEqual(['./sub/e symlink /etc maybe']);
  });

  it('shows a command nothing made after it, unless it may run again after (a loop)', () => {
    expect(seenBy('cat e; ln -s /etc e', 'cat')).toEqual([]);
    expect(seenBy('while :; do cat e; ln -s /etc e; done', 'cat')).toEqual(['./e symlink /etc maybe']);
  });

  it('forgets what was surely removed, and keeps what may have been as maybe', () => {
    expect(seenBy('ln -s /etc e; rm e; cat e', 'cat')).toEqual([]);
    expect(seenBy('ln -s /etc e; true && rm e; cat e', 'cat')).toEqual(['./e symlink /etc maybe']);
  });

  it('moves a link with `mv`: its text goes along, its old name is gone', () => {
    expect(seenBy('ln -s /etc e; mv e f; cat f', 'cat')).toEqual(['./f symlink /etc surely']);
  });

  it('places a link inside a directory made before it (`mkdir d; ln -s /etc d/x`)', () => {
    expect(seenBy('mkdir d; ln -s /etc d/x; cat d/x', 'cat')).toEqual(['./d/x symlink /etc surely', './d dir ? surely']);
  });
});
