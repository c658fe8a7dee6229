import { describe, expect, it } from 'vitest';
import { HOME, walkLine } from '../helpers/walk-line.js';

const events = (line: string) =>
  walkLine(line, '/ws/p').lineLinks.events.map((r) => ({ ...r.event, program: r.maker.program, cwd: r.cwd, straight: r.straight }));

describe('links and directories the line makes, as the walker records them', () => {
  it('records a link and a later removal with their words as written and the directory they were written in', () => {
    expect(events('ln -s ~ h; cd sub; rm -rf h/')).toEqual([
      {
        type: 'link',
        kind: 'symlink',
        sources: [HOME],
        dest: 'h',
        into: 'auto',
        noDeref: false,
        fromCwd: false,
        force: false,
        unknown: false,
        program: 'ln',
        cwd: '/ws/p',
        straight: true,
      },
      // `cd sub` may fail (sub is not on disk here, and ln ran before it): rm is walked where it was too
      { type: 'remove', paths: ['h/'], program: 'rm', cwd: '/ws/p', straight: true },
      { type: 'remove', paths: ['h/'], program: 'rm', cwd: '/ws/p/sub', straight: true },
    ]);
  });

  it('marks what may not have run before the commands after it (a branch, a pipeline stage, the background)', () => {
    for (const line of ['true && ln -s /etc e', 'ln -s /etc e | cat', 'ln -s /etc e &', 'if x; then mkdir d; fi']) {
      expect(
        events(line).map((e) => e.straight),
        line,
      ).toEqual([false]);
    }
  });

  it('records nothing made on another host', () => {
    expect(events("ssh host 'ln -s / x'")).toEqual([]);
  });

  it('keeps what it cannot read as unknown instead of guessing', () => {
    expect(events('ln --frobnicate a b')).toMatchObject([{ type: 'link', unknown: true }]);
    expect(events('ln -s "$T" x')).toMatchObject([{ type: 'link', sources: [null], dest: 'x' }]);
  });

  it('follows where each program puts what it makes', () => {
    expect(events('ln -t dir a b')).toMatchObject([{ type: 'link', kind: 'hardlink', sources: ['a', 'b'], dest: 'dir', into: 'always' }]);
    expect(events('cp -a src dst')).toMatchObject([{ type: 'copy-links', sources: ['src'], dest: 'dst', move: false }]);
    expect(events('mv -T a b')).toMatchObject([{ type: 'copy-links', sources: ['a'], dest: 'b', into: 'never', move: true }]);
    expect(events('mkdir -p a/b')).toMatchObject([{ type: 'dirs', paths: ['a/b'], parents: true }]);
    // A plain copy copies files, not links; help text makes nothing.
    expect(events('cp src dst; ln --help')).toEqual([]);
  });
});
