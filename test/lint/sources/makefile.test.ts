import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { makefile } from '../../../src/lint/sources/makefile.js';
import type { Snippet } from '../../../src/lint/sources/types.js';
import { at } from '../../helpers/lint-source.js';

const T = '\t';

function extract(lines: string[] | string) {
  const file = Array.isArray(lines) ? lines.join('\n') + '\n' : lines;
  return { file, ...makefile.extract(file, 'Makefile') };
}

const texts = (r: { snippets: Snippet[] }) => r.snippets.map((s) => s.text);

describe('makefile: which files', () => {
  it('matches Makefile, makefile, GNUmakefile, *.mk and *.make anywhere in the tree', () => {
    for (const p of ['Makefile', 'makefile', 'GNUmakefile', 'src/Makefile', 'build/rules.mk', 'tools/release.make']) expect(makefile.matches(p, '')).toBe(true);
    for (const p of ['Makefile.am', 'Makefile.in', 'makefile.txt', 'mk', 'notes/make.md', 'CMakeLists.txt']) expect(makefile.matches(p, '')).toBe(false);
  });
});

describe('makefile: recipes', () => {
  const fixture = [
    '# Build the app',
    'PREFIX ?= /usr/local',
    'BUILD = build',
    '',
    '.PHONY: all clean install',
    '',
    'all: $(BUILD)/app',
    '',
    '$(BUILD)/app: main.c | $(BUILD)',
    `${T}$(CC) -o $@ $<`,
    '',
    'clean:',
    `${T}@echo "cleaning"`,
    `${T}-rm -rf $(BUILD) \\`,
    `${T}  dist`,
    '',
    'install: all',
    `${T}@ - install -m 755 $(BUILD)/app $(DESTDIR)$(PREFIX)/bin/app`,
  ];

  it('gives one snippet per logical recipe line, named after the first target, run by sh on the host in the Makefile directory', () => {
    const r = extract(fixture);
    expect(r.findings).toEqual([]);
    expect(r.snippets.map((s) => [s.origin, s.shell, s.where, s.cwd])).toEqual([
      ['recipe of $(BUILD)/app', 'sh', 'host', '.'],
      ['recipe of clean', 'sh', 'host', '.'],
      ['recipe of clean', 'sh', 'host', '.'],
      ['recipe of install', 'sh', 'host', '.'],
    ]);
  });

  it('drops the tab and the @ - + flags (with blanks between them), mapping the rest one to one', () => {
    const r = extract(fixture);
    const [, echo, rm, install] = r.snippets;
    expect(echo!.text).toBe('echo "cleaning"');
    expect(at(r.file, echo!, 'echo')).toEqual({ line: 13, column: 3 });
    expect(rm!.text.startsWith('rm -rf ')).toBe(true);
    expect(at(r.file, rm!, 'rm')).toEqual({ line: 14, column: 3 });
    expect(install!.text.startsWith('install -m 755 ')).toBe(true);
    expect(at(r.file, install!, 'install')).toEqual({ line: 18, column: 6 });
    expect(at(r.file, install!, '755')).toEqual({ line: 18, column: 17 });
  });

  it('keeps a backslash-newline for the shell and drops only the one tab after it', () => {
    const r = extract(fixture);
    const rm = r.snippets[2]!;
    expect(rm.text).toBe('rm -rf ${__make_BUILD} \\\n  dist');
    expect(at(r.file, rm, '\\')).toEqual({ line: 14, column: 19 });
    expect(at(r.file, rm, 'dist')).toEqual({ line: 15, column: 4 });
  });

  it('reads continuation lines the way the GNU make manual shows (no tab removed when there is none)', () => {
    const r = extract(['all :', `${T}@echo no\\`, 'space', `${T}@echo one \\`, `${T} space`]);
    expect(texts(r)).toEqual(['echo no\\\nspace', 'echo one \\\n space']);
    expect(at(r.file, r.snippets[0]!, 'space')).toEqual({ line: 3, column: 1 });
    expect(at(r.file, r.snippets[1]!, 'space')).toEqual({ line: 5, column: 3 });
  });

  it('reads the recipe after `;` on the rule line, continuation lines included, and no recipe after a comment', () => {
    const r = extract([`all : ; @echo 'hello \\`, `${T}world' ; rm -f x`, 'b: c # not ; a recipe', `${T}touch b`]);
    expect(texts(r)).toEqual(["echo 'hello \\\nworld' ; rm -f x", 'touch b']);
    expect(at(r.file, r.snippets[0]!, 'echo')).toEqual({ line: 1, column: 10 });
    expect(at(r.file, r.snippets[0]!, 'rm')).toEqual({ line: 2, column: 11 });
    expect(r.snippets[1]!.origin).toBe('recipe of b');
  });
});

describe('makefile: what make expands', () => {
  it('turns $$ into $, mapped to the first $', () => {
    const r = extract(['loop:', `${T}for f in *.log; do rm "$$f"; done`]);
    const s = r.snippets[0]!;
    expect(s.text).toBe('for f in *.log; do rm "$f"; done');
    expect(at(r.file, s, '$f')).toEqual({ line: 2, column: 25 });
    expect(at(r.file, s, 'f"')).toEqual({ line: 2, column: 27 });
    expect(at(r.file, s, 'done')).toEqual({ line: 2, column: 31 });
  });

  it('never substitutes a value the Makefile gives (make BUILD=/ overrides it): variables and automatic variables become dynamic words over their range', () => {
    const r = extract(['BUILD = build', 'clean:', `${T}rm -rf $(BUILD)/* \${OUT} $@ $(@D) $X ok`]);
    const s = r.snippets[0]!;
    expect(s.text).toBe('rm -rf ${__make_BUILD}/* ${__make_OUT} ${__make_target} ${__make_target_dir} ${__make_X} ok');
    expect(s.text).not.toContain('build');
    expect(at(r.file, s, '${__make_BUILD}')).toEqual({ line: 3, column: 9 });
    expect(at(r.file, s, '/*')).toEqual({ line: 3, column: 17 });
    expect(at(r.file, s, '${__make_OUT}')).toEqual({ line: 3, column: 20 });
    expect(at(r.file, s, '${__make_target}')).toEqual({ line: 3, column: 27 });
    expect(at(r.file, s, 'ok')).toEqual({ line: 3, column: 39 });
  });

  it('sanitizes names so that computed names and substitution references stay one shell variable', () => {
    const r = extract(['x:', `${T}cc $($(ARCH)-flags) $(SRC:.c=.o)`]);
    expect(r.snippets[0]!.text).toBe('cc ${__make___ARCH__flags} ${__make_SRC}');
  });

  it('turns $(shell cmd) into $(cmd) with cmd mapped one to one, references in it expanded too', () => {
    const r = extract(['install:', `${T}cp app $(shell brew --prefix $(PKG))/bin`]);
    const s = r.snippets[0]!;
    expect(s.text).toBe('cp app $(brew --prefix ${__make_PKG})/bin');
    expect(at(r.file, s, '$(')).toEqual({ line: 2, column: 9 });
    expect(at(r.file, s, 'brew')).toEqual({ line: 2, column: 17 });
    expect(at(r.file, s, '--prefix')).toEqual({ line: 2, column: 22 });
    expect(at(r.file, s, ')/bin')).toEqual({ line: 2, column: 37 });
  });

  it('turns other functions into one dynamic word, however deeply nested, and reads on after it', () => {
    const r = extract(['objs:', `${T}rm -f $(patsubst %.c,%.o,$(filter %.c,$(wildcard src/*.c))) \${if $(V),x,y} $(call log,done) && ls`]);
    const s = r.snippets[0]!;
    expect(s.text).toBe('rm -f ${__make_patsubst} ${__make_if} ${__make_call} && ls');
    expect(at(r.file, s, '&&')).toEqual({ line: 2, column: 94 });
  });

  it('expands $(info), $(warning), $(error) and $(eval) to nothing, as make always does', () => {
    const r = extract(['x:', `${T}$(info building $@)`, `${T}@$(eval STAMP := 1)touch $@.stamp $(warning careful)`]);
    expect(texts(r)).toEqual(['touch ${__make_target}.stamp ']);
    expect(at(r.file, r.snippets[0]!, 'touch')).toEqual({ line: 3, column: 21 });
  });

  it('closes single quotes around a dynamic word: make pastes the value before the shell reads the quotes', () => {
    const r = extract(['x:', `${T}sh -c '$(CMD)' "$(ARG)"`]);
    expect(r.snippets[0]!.text).toBe('sh -c \'\'"${__make_CMD}"\'\' "${__make_ARG}"');
  });

  it('reads an unterminated reference as an unknown word to the end of the line', () => {
    const r = extract(['x:', `${T}echo $(oops`]);
    expect(r.snippets[0]!.text).toBe('echo ${__make_oops}');
  });
});

describe('makefile: what is not a recipe', () => {
  it('skips assignments, define blocks, conditionals at column 0 (both branches are linted), comments and includes', () => {
    const r = extract([
      'include config.mk',
      'define RUN_TESTS',
      `${T}rm -rf /tmp/cache`,
      'endef',
      'V := 1',
      '',
      'test:',
      '# a make comment between recipe lines',
      'ifeq ($(OS),Windows_NT)',
      `${T}del /q out`,
      'else',
      `${T}rm -f out`,
      'endif',
      `${T}$(RUN_TESTS)`,
    ]);
    expect(texts(r)).toEqual(['del /q out', 'rm -f out', '${__make_RUN_TESTS}']);
    expect(r.snippets.every((s) => s.origin === 'recipe of test')).toBe(true);
    expect(at(r.file, r.snippets[1]!, 'rm')).toEqual({ line: 12, column: 2 });
  });

  it('does not read a tab line before any rule, or after a variable assignment ends the rule, as a recipe', () => {
    const r = extract([`${T}CFLAGS += -O2`, 'all:', `${T}echo one`, 'X = 1', `${T}Y = 2`, `${T}echo never`]);
    expect(texts(r)).toEqual(['echo one']);
  });

  it('does not start a rule context with a target-specific variable, nor with a rule without targets', () => {
    const r = extract(['debug: CFLAGS += -g', `${T}echo nope`, ': nothing', `${T}echo nope`, 'ok:', `${T}echo yes`]);
    expect(texts(r)).toEqual(['echo yes']);
  });

  it('keeps the tab lines of a define body out even when they look like an endef', () => {
    const r = extract(['define X', `${T}endef`, `${T}rm -rf /`, 'endef', 'a:', `${T}true`]);
    expect(texts(r)).toEqual(['true']);
  });

  it('passes a tab-indented comment to the shell as make does, but no blank recipe line', () => {
    const r = extract(['a:', `${T}# shell comment`, `${T}`, `${T}  `, `${T}ls`]);
    expect(texts(r)).toEqual(['# shell comment', 'ls']);
  });
});

describe('makefile: .ONESHELL, .RECIPEPREFIX and SHELL', () => {
  it('gives the whole recipe to one shell under .ONESHELL, dropping flags at the start of each line for a Bourne shell', () => {
    const r = extract([
      'SHELL := /bin/bash',
      'deploy:',
      `${T}@set -euo pipefail`,
      `${T}cd $(DIR)`,
      `${T}-@ rm -rf old \\`,
      `${T}  -r`,
      `${T}cat <<EOF > conf`,
      `${T}key=$$HOME`,
      `${T}EOF`,
      '.ONESHELL:',
    ]);
    expect(r.snippets).toHaveLength(1);
    const s = r.snippets[0]!;
    expect(s.shell).toBe('bash');
    expect(s.text).toBe('set -euo pipefail\ncd ${__make_DIR}\nrm -rf old \\\n  -r\ncat <<EOF > conf\nkey=$HOME\nEOF');
    expect(at(r.file, s, 'rm')).toEqual({ line: 5, column: 5 });
    expect(at(r.file, s, '-r', 1)).toEqual({ line: 6, column: 4 });
    expect(at(r.file, s, '\n', 0)).toEqual({ line: 3, column: 20 });
    expect(at(r.file, s, 'EOF', 1)).toEqual({ line: 9, column: 2 });
  });

  it('keeps flags on the inner lines of a .ONESHELL recipe for a shell that is not Bourne-compatible', () => {
    const r = extract(['.ONESHELL:', 'SHELL = /usr/bin/python3', 'p:', `${T}@import os`, `${T}-1`]);
    expect(r.snippets[0]!.text).toBe('import os\n-1');
    expect(r.snippets[0]!.shell).toBe('python3');
  });

  it('reads recipe lines with the prefix .RECIPEPREFIX sets, and drops only that prefix after a backslash-newline', () => {
    const r = extract(['.RECIPEPREFIX = >', 'all:', '> @echo hi \\', '> there', `${T}not-a-recipe: x`]);
    expect(texts(r)).toEqual(['echo hi \\\n there']);
    expect(at(r.file, r.snippets[0]!, 'there')).toEqual({ line: 4, column: 3 });
  });

  it('runs recipes in the shell SHELL names: the last assignment, env-wrapped, or per target; ?= never applies', () => {
    const shellOf = (lines: string[]) => extract([...lines, 'a:', `${T}true`]).snippets[0]!.shell;
    expect(shellOf([])).toBe('sh');
    expect(shellOf(['SHELL := /bin/bash'])).toBe('bash');
    expect(shellOf(['export SHELL = /usr/bin/env bash'])).toBe('bash');
    expect(shellOf(['SHELL := /bin/bash', 'SHELL = /bin/dash'])).toBe('sh');
    expect(shellOf(['SHELL ?= /bin/bash'])).toBe('sh');
    expect(shellOf(['SHELL := pwsh.exe'])).toBe('pwsh');
    expect(shellOf(['SHELL := $(shell which bash)'])).toBe('bash');
    expect(shellOf(['SHELL := $(MYSHELL)'])).toBe('$(MYSHELL)');
    expect(shellOf(['a: SHELL := /bin/zsh'])).toBe('zsh');
    expect(shellOf(['b: SHELL := /bin/zsh'])).toBe('sh');
  });
});

describe('makefile: Windows line endings', () => {
  it('leaves the \\r of \\r\\n out of the code and keeps positions exact', () => {
    const file = ['BUILD = b', 'clean:', `${T}@rm -rf $(BUILD) \\`, `${T}  dist`, `${T}echo ok`].join('\r\n') + '\r\n';
    const r = makefile.extract(file, 'Makefile');
    expect(texts(r)).toEqual(['rm -rf ${__make_BUILD} \\\n  dist', 'echo ok']);
    expect(at(file, r.snippets[0]!, '\n')).toEqual({ line: 3, column: 21 });
    expect(at(file, r.snippets[0]!, 'dist')).toEqual({ line: 4, column: 4 });
    expect(at(file, r.snippets[1]!, 'ok')).toEqual({ line: 5, column: 7 });
  });
});

describe('makefile: never throws', () => {
  const fixtures = [
    ['all: x ; @echo $(A)', 'x:', `${T}-rm -rf $$HOME/$(shell ls $(D)) \\`, `${T} y`, 'define Q', 'endef', '.ONESHELL:'].join('\n'),
    ['.RECIPEPREFIX = >', 'a:', '> echo $(', 'ifeq (a,b)', `${T}x`, 'endif'].join('\r\n'),
  ];
  const check = (text: string) => {
    const r = makefile.extract(text, 'Makefile');
    for (const s of r.snippets) {
      expect(s.offsets.length).toBe(s.text.length + 1);
      for (const o of s.offsets) expect(o >= 0 && o <= text.length).toBe(true);
    }
  };

  it('on random text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('\t', '\n', '\r', '\\', '$', '(', ')', '{', '}', ':', ';', '=', '#', '@', '-', ' ', 'a', 'S', "'") }),
        check,
      ),
      {
        numRuns: 500,
      },
    );
  });

  it('on random mutations of real-shaped Makefiles', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.nat(), fc.nat(), fc.string({ maxLength: 4 }), (f, a, b, ins) => {
        const i = a % (f.length + 1);
        const j = Math.min(f.length, i + (b % 5));
        check(f.slice(0, i) + ins + f.slice(j));
      }),
      { numRuns: 500 },
    );
  });
});
