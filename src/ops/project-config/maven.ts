/**
 * Maven reads its project's `.mvn` directory before it reads its argv — `mvn -v` included. The
 * launcher script looks for `.mvn` upwards from the working directory (the multi-module project
 * directory) and then:
 * - `.mvn/jvm.config` holds JVM options (`-javaagent:x.jar`, `-XX:OnOutOfMemoryError=…`): code;
 * - `.mvn/maven.config` holds command-line options (`-Dmaven.ext.class.path=…`, `-s`, goals);
 * - `.mvn/extensions.xml` names core extensions, downloaded and loaded at start.
 * `MAVEN_OPTS`, `MAVEN_ARGS`, `JAVA_TOOL_OPTIONS`, `JDK_JAVA_OPTIONS` and `JAVA_HOME`, when the
 * line sets them, do the same. Any of these files present asks: what they say is not read here.
 */
import { posix } from 'node:path';
import { StampedCache } from './file-probe.js';
import type { ProjectContext, RepoCode } from './types.js';

const FILES: Record<string, string> = {
  'jvm.config': 'JVM options Maven starts with (may load an agent)',
  'maven.config': 'options Maven adds to every command line',
  'extensions.xml': 'core extensions Maven loads',
};
const VARIABLES = ['MAVEN_OPTS', 'MAVEN_ARGS', 'JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS', 'JAVA_HOME', 'MAVEN_SKIP_RC'];

const cache = new StampedCache<RepoCode[]>();

export function mavenRepoCode(ctx: ProjectContext): RepoCode[] {
  const out: RepoCode[] = [];
  for (const name of VARIABLES)
    if (ctx.lineSets(name)) out.push({ kind: 'key', where: 'the environment the line sets', what: name, value: ctx.variable(name) });
  const found = cache.get(ctx.cwd, (probe) => {
    for (let d = ctx.cwd; ; d = posix.dirname(d)) {
      const mvn = posix.join(d, '.mvn');
      if (probe.exists(mvn)) {
        const hits: RepoCode[] = [];
        for (const [name, what] of Object.entries(FILES)) {
          const f = posix.join(mvn, name);
          if (probe.exists(f)) hits.push({ kind: 'file', where: f, what });
        }
        // The nearest `.mvn` is the project's: Maven stops there.
        return hits;
      }
      if (d === '/') return [];
    }
  });
  return [...out, ...found];
}
