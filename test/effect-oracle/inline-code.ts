/**
 * Inline-code programs for python, node, perl and awk: harmless statements, statements that run
 * code or write, and dangerous words hidden in strings and comments, in the forms an agent writes
 * them (`-c`, `-e`, `-ne`, a heredoc on stdin). Deterministic for a seed.
 */

/** mulberry32: a small seeded generator, so a sample is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const PY = [
  'print(1)',
  'import json; print(json.dumps([1]))',
  'import sys; print(sys.version)',
  'print(open("notes.txt").read())',
  'import os; print(os.getcwd())',
  'import os; print(os.listdir("."))',
  'import os; print(os.listdir(".."))',
  'import re; print(re.sub("a", "b", "abc"))',
  'import csv, random, string, typing, collections, math',
  'import base64; print(base64.b64encode(b"x"))',
  'import hashlib; print(hashlib.sha256(b"x").hexdigest())',
  'x = "os.system(1)"; print(x)',
  '# import subprocess',
  'print("__import__ exec eval")',
  'print(sum(range(10)))',
  'open("out.txt", "w").write("x")',
  'import subprocess; subprocess.run(["id"])',
  'exec("print(1)")',
  'print(open(".env").read())',
  'print(open("home-link/.ssh/id_rsa").read())',
  'import os; print(os.environ.get("HOME"))',
  'import pathlib; print(pathlib.Path("data.csv").read_text())',
  'import glob; print(glob.glob("*"))',
] as const;

const NODE = [
  'console.log(1)',
  'console.log(require("fs").readFileSync("notes.txt", "utf8"))',
  'require("lodash")',
  'console.log(process.env.HOME)',
  'require("child_process").execSync("id")',
  'console.log("require(child_process)")',
  'require("fs").writeFileSync("x", "y")',
  'console.log(JSON.stringify({ a: 1 }))',
  'console.log(require("fs").readdirSync(".."))',
  'console.log(require("os").homedir())',
  '// require("child_process")',
  'console.log(require("path").join("a", "b"))',
  'console.log(require("fs").readFileSync(".env", "utf8"))',
  'console.log([1, 2].map((x) => x * 2))',
] as const;

const PERL = [
  'print "hi\\n"',
  'use strict; print 1',
  'system("id")',
  'print `id`',
  'open(F, ">x")',
  'print $ENV{HOME}',
  '# system("id")',
  'print "system(1)"',
  'print scalar(localtime)',
  'opendir(D, ".."); print readdir(D)',
  'print join(",", 1..3)',
] as const;

const AWK = [
  '{print $1}',
  'BEGIN{print 1}',
  '/TODO/{print}',
  'BEGIN{system("id")}',
  '{print > "out"}',
  '{print | "cat"}',
  'BEGIN{while (("cat /etc/passwd" | getline l) > 0) print l}',
  'BEGIN{print "system"}',
  'END{print NR}',
  '{n += length($0)} END{print n}',
  'BEGIN{getline l < ".env"; print l}',
  '{print FILENAME}',
] as const;

function body(r: () => number, pool: readonly string[], sep: string): string {
  const n = 1 + Math.floor(r() * 3);
  return Array.from({ length: n }, () => pick(r, pool)).join(sep);
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `perLanguage` programs for each of python, node, perl and awk. */
export function inlineCodePrograms(perLanguage: number, seed = 27): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < perLanguage; i++) {
    const py = body(r, PY, pick(r, ['; ', '\n']));
    out.push(pick(r, [`python3 -c ${sq(py)}`, `python3 - <<'EOF'\n${py}\nEOF`, `python3 -I -c ${sq(py)}`, `cd src && python3 -c ${sq(py)}`]));
    const js = body(r, NODE, '; ');
    out.push(pick(r, [`node -e ${sq(js)}`, `node -p ${sq(js)}`, `node - <<'EOF'\n${js}\nEOF`]));
    const pl = body(r, PERL, '; ');
    out.push(pick(r, [`perl -e ${sq(pl)}`, `perl -ne ${sq(pl)} notes.txt`, `perl -I. -Mstrict -e ${sq(pl)}`]));
    const awk = body(r, AWK, ' ');
    out.push(pick(r, [`awk ${sq(awk)} notes.txt`, `awk -F, ${sq(awk)} data.csv`, `cat notes.txt | awk ${sq(awk)}`]));
  }
  return out;
}
