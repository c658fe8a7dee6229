/**
 * Deciding whether two globs may match a common path, pattern against pattern: "no" must be a
 * proof. A property test checks it against picomatch on concrete paths; tables pin the cases the
 * sensitive-path check relies on.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globsMayMeet } from '../../src/paths/glob-meet.js';
import { PathClassifier } from '../../src/paths/classify.js';

const plain = { dotA: false, dotB: true, nocase: false };

describe('globsMayMeet', () => {
  it('never says no when some path matches both (picomatch as the judge)', () => {
    const segment = fc.stringMatching(/^[ab.*?]{1,4}$/).filter((s) => s !== '.' && s !== '..');
    const pattern = fc.array(fc.oneof(segment, fc.constant('**')), { minLength: 1, maxLength: 4 }).map((s) => '/' + s.join('/'));
    const name = fc.stringMatching(/^[ab.]{1,3}$/).filter((s) => s !== '.' && s !== '..');
    const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((s) => '/' + s.join('/'));
    fc.assert(
      fc.property(pattern, pattern, path, fc.boolean(), fc.boolean(), (a, b, p, dotA, dotB) => {
        const both = picomatch(a, { dot: dotA })(p) && picomatch(b, { dot: dotB })(p);
        if (both) expect(globsMayMeet(a, b, { dotA, dotB, nocase: false }), `${a} ${b} ${p}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('knows what a name pattern cannot be', () => {
    expect(globsMayMeet('/ws/**/*.c', '**/.env', { ...plain, dotA: true })).toBe(false);
    expect(globsMayMeet('/ws/**/*.local', '**/.env.*', { ...plain, dotA: true })).toBe(true);
    expect(globsMayMeet('/ws/*', '**/.env', plain)).toBe(false); // bash's * skips dot names
    expect(globsMayMeet('/ws/*', '**/.env', { ...plain, dotA: true })).toBe(true); // dotglob
    expect(globsMayMeet('/ws/.e*', '**/.env', plain)).toBe(true);
    expect(globsMayMeet('/ws/**/x', '**/.git/hooks/**', plain)).toBe(false); // bash's ** does not enter .git
    expect(globsMayMeet('/ws/[.]env', '**/.env', plain)).toBe(false); // a class does not match a leading dot either
    expect(globsMayMeet('/ws/*.ENV', '**/.env', { ...plain, dotA: true, nocase: true })).toBe(true);
    expect(globsMayMeet('/ws/@(a|.env)', '**/.env', plain)).toBe(true); // extglob is not read: may be anything
  });
});

describe('globs against the sensitive list', () => {
  const c = new PathClassifier({ home: '/home/user', workspaceRoots: ['/ws/project'], caseInsensitive: () => false });
  const sensitive = (p: string, o = {}) => c.classify(p, true, true, o).includes('sensitive');

  it('a pattern that may name a secret is sensitive', () => {
    for (const p of [
      '/ws/project/.env*',
      '/ws/project/*/.env',
      '/ws/project/sub/.env.*',
      '/ws/project/**/.env.local',
      '/home/user/.ssh/*',
      '/ws/project/.claude/*',
      '/ws/project/src/id_*',
    ])
      expect(sensitive(p), p).toBe(true);
    expect(sensitive('/ws/project/*', { dotglob: true })).toBe(true);
  });

  it('a pattern that cannot is not: source files, and names bash skips', () => {
    for (const p of ['/ws/project/**/*.ts', '/ws/project/*', '/ws/project/*/*', '/ws/project/src/**/*.c', '/ws/project/docs/*.md'])
      expect(sensitive(p), p).toBe(false);
    // find's {} narrowed by -name '*.c' matches dot names, still never .env
    expect(sensitive('/ws/project/**/*.c', { dotglob: true, produced: true })).toBe(false);
    // produced names under a root, with nothing said of them: judged by the directory, like grep -r
    expect(sensitive('/ws/project/**', { dotglob: true, produced: true })).toBe(false);
    expect(sensitive('/home/user/.ssh/**', { dotglob: true, produced: true })).toBe(true);
  });
});
