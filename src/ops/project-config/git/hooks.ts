/**
 * Hooks a git run fires: an executable file named after the event in the hooks directory
 * (`core.hooksPath`, relative to the work tree root where git runs hooks, else
 * `$GIT_COMMON_DIR/hooks`), and hooks defined in configuration (`hook.<name>.command` with
 * `hook.<name>.event`, newer gits). A read-only command fires `post-index-change` whenever it
 * writes the index back, which `git status` does opportunistically.
 */
import { posix } from 'node:path';
import type { FileProbe } from '../file-probe.js';
import type { RepoCode } from '../types.js';
import { candidates, gitBool, type LoadedConfig } from './config-load.js';
import type { GitRepo } from './discovery.js';

export function hookRisks(probe: FileProbe, repo: GitRepo, config: LoadedConfig, home: string | null, events: readonly string[]): RepoCode[] {
  if (events.length === 0) return [];
  const out: RepoCode[] = [];
  const dirs: string[] = [];
  const hooksPath = candidates(config.entries, (e) => e.name === 'core.hookspath');
  for (const c of hooksPath) {
    if (c.unknownValue || c.value === null) {
      out.push({ kind: 'unknown', where: c.file, what: 'core.hooksPath names a hooks directory not known here' });
      continue;
    }
    let dir = c.value;
    if (dir === '~' || dir.startsWith('~/')) {
      if (home === null) {
        out.push({ kind: 'unknown', where: c.file, what: `core.hooksPath = ${c.value} is under a HOME not known here` });
        continue;
      }
      dir = home + dir.slice(1);
    }
    // Relative to where git runs hooks: the top of the work tree (core.worktree may move it), else the git directory.
    const bases = new Set([repo.workTree ?? repo.gitDir]);
    for (const w of candidates(config.entries, (e) => e.name === 'core.worktree')) if (w.value) bases.add(posix.resolve(repo.gitDir, w.value));
    for (const base of bases) dirs.push(posix.resolve(base, dir));
  }
  if (hooksPath.length === 0 || !hooksPath[0].certain) dirs.push(posix.join(repo.commonDir, 'hooks'));
  for (const dir of new Set(dirs)) {
    for (const event of events) {
      const file = posix.join(dir, event);
      if (probe.isExecutableFile(file)) out.push({ kind: 'file', where: file, what: `${event} hook` });
    }
  }
  // hook.<name>.command runs for each event listed in hook.<name>.event (an empty value resets the list).
  const eventsOf = new Map<string, (string | null)[]>();
  for (const e of config.entries) {
    if (e.section !== 'hook' || e.subsection === null || e.key !== 'event') continue;
    const list = eventsOf.get(e.subsection) ?? [];
    if (e.value === '' && !e.unknownValue) list.length = 0;
    else list.push(e.unknownValue ? null : e.value);
    eventsOf.set(e.subsection, list);
  }
  for (const [name, list] of eventsOf) {
    if (!list.some((ev) => ev === null || events.includes(ev))) continue;
    const enabled = candidates(config.entries, (e) => e.section === 'hook' && e.subsection === name && e.key === 'enabled');
    if (enabled.length > 0 && enabled.every((e) => !e.unknownValue && gitBool(e.value) === false)) continue;
    for (const c of candidates(config.entries, (e) => e.section === 'hook' && e.subsection === name && e.key === 'command')) {
      out.push({ kind: 'key', where: c.file, what: c.name, value: c.unknownValue ? null : c.value });
    }
  }
  return out;
}
