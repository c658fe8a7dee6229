// Large commands of the four shapes issue 13 names, built to a given size in bytes (ASCII, so
// characters and bytes are one): one `echo` with many arguments, a long pipeline, an `&&` chain,
// and a multi-line script of realistic mixed lines.

/** Repeat `unit(i)` joined by `sep` after `head` until the text is at least `bytes` long. */
function build(bytes, head, unit, sep) {
  const parts = [head];
  let length = head.length;
  for (let i = 0; length < bytes; i++) {
    const u = (i === 0 ? '' : sep) + unit(i);
    parts.push(u);
    length += u.length;
  }
  return parts.join('');
}

const SCRIPT_LINES = [
  (i) => `# step ${i}: refresh the build`,
  (i) => `cd "$ROOT/pkg${i % 7}" || exit 1`,
  (i) => `if [ -f src/f${i}.ts ]; then cp src/f${i}.ts dist/; fi`,
  (i) => `for f in src/*.ts; do wc -l "$f"; done > counts${i}.txt`,
  (i) => `grep -rn TODO src | head -n ${i % 50} | sort -u`,
  (i) => `export STAGE=${i} PATH="$HOME/bin:$PATH"`,
  (i) => `n=$(find . -name '*.log' -mtime +${i % 30} | wc -l)`,
  (i) => `echo "done ${i}: $n files" >> build.log 2>&1`,
  (i) => `case "$1" in start) npm run dev ;; test) npm test -- --run ;; *) echo "usage ${i}" ;; esac`,
  (i) => `tar czf out${i}.tgz dist && rm -rf tmp${i}`,
  (i) => `f${i}() { local x="$1"; printf '%s\\n' "\${x%.ts}.js"; }`,
  (i) => `cat <<EOF > note${i}.txt\nbuilt at $(date) by $USER\nEOF`,
];

/** name → (bytes) → command text */
export const SHAPES = {
  'echo with many arguments': (bytes) => build(bytes, 'echo', (i) => ` arg${i}`, ''),
  // `sed s/a/b/g | ` is 14 bytes: 1 MiB is about 75,000 stages.
  pipeline: (bytes) => build(bytes, '', () => 'sed s/a/b/g', ' | '),
  '&& chain': (bytes) => build(bytes, '', (i) => `test -d d${i}`, ' && '),
  'multi-line script': (bytes) => build(bytes, '#!/bin/bash\nset -eu\n', (i) => SCRIPT_LINES[i % SCRIPT_LINES.length](i), '\n'),
};

export const SIZES = [
  ['1 KB', 1024],
  ['10 KB', 10 * 1024],
  ['100 KB', 100 * 1024],
  ['1 MB', 1024 * 1024],
];
