/**
 * Tells the server when a settings file it uses changes. Editors save by writing a new file and
 * renaming it over the old one, which ends a watch on the file itself, so the folder is watched
 * and events are filtered by name. A file whose folder does not exist yet (a project with no
 * `.claude/`, no managed settings) is polled with fs.watchFile, which reports its creation.
 * Changes arriving together are reported once, after `debounceMs`.
 */
import { existsSync, statSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

export interface SettingsWatcher {
  add(files: string[]): void;
  close(): void;
}

export function createSettingsWatcher(onChange: () => void, debounceMs = 100, pollMs = 2000): SettingsWatcher {
  const dirs = new Map<string, { names: Set<string>; watcher: FSWatcher }>();
  const polled = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const changed = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      onChange();
    }, debounceMs);
  };
  const isDir = (p: string): boolean => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  const poll = (file: string): void => {
    if (polled.has(file)) return;
    polled.add(file);
    watchFile(file, { persistent: false, interval: pollMs }, (cur, prev) => {
      if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size || cur.ino !== prev.ino) changed();
    });
  };
  return {
    add(files) {
      for (const f of files.map((x) => resolve(x))) {
        const dir = dirname(f);
        const entry = dirs.get(dir);
        if (entry) {
          entry.names.add(basename(f));
          continue;
        }
        if (!existsSync(dir) || !isDir(dir)) {
          poll(f);
          continue;
        }
        try {
          const names = new Set([basename(f)]);
          const watcher = watch(dir, { persistent: false }, (_event, name) => {
            // Some platforms do not report the name: then any change in the folder counts.
            if (name === null || names.has(String(name))) changed();
          });
          watcher.on('error', () => {
            // The folder went away (or the watch failed): fall back to polling its files.
            watcher.close();
            dirs.delete(dir);
            for (const n of names) poll(resolve(dir, n));
          });
          dirs.set(dir, { names, watcher });
        } catch {
          poll(f); // too many watches (ENOSPC), or no permission
        }
      }
    },
    close() {
      if (timer) clearTimeout(timer);
      for (const { watcher } of dirs.values()) watcher.close();
      dirs.clear();
      for (const f of polled) unwatchFile(f);
      polled.clear();
    },
  };
}
