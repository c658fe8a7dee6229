/**
 * A small deterministic generator of bash commands for the oracle: one inner command spelt in
 * many ways, placed in many contexts (lists, pipelines, subshells, substitutions, heredocs,
 * nested shells, wrappers), plus a fixed list of bash features that run code in less obvious ways.
 * Same output on every call; no randomness.
 */

/** Quote for bash as one single-quoted word. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Ways to spell a program name that bash resolves to that program (or computes at run time). */
export function spellings(p: string): string[] {
  const hex = [...p].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
  const oct = [...p].map((c) => `\\${c.charCodeAt(0).toString(8)}`).join('');
  const a = p.slice(0, 1);
  const b = p.slice(1);
  return [
    p,
    `\\${p}`,
    `"${p}"`,
    `'${p}'`,
    `${a}''${b}`,
    `${a}""${b}`,
    `${a}\\${b}`,
    `"${a}"'${b}'`,
    `$'${hex}'`,
    `$'${oct}'`,
    `$"${p}"`,
    `/bin/${p}`,
    `/usr/bin/${p}`,
    `command ${p}`,
    `$(echo ${p})`,
    `\`echo ${p}\``,
    `\${X:-${p}}`,
  ];
}

/** Contexts: each places a command text C somewhere bash may (or may not) run it. */
export const CONTEXTS: ((c: string) => string)[] = [
  (c) => c,
  (c) => `true && ${c}`,
  (c) => `false || ${c}`,
  (c) => `true; ${c}`,
  (c) => `${c} | cat`,
  (c) => `echo a | ${c}`,
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `echo $(${c})`,
  (c) => `echo "$(${c})"`,
  (c) => `echo \`${c}\``,
  (c) => `cat <(${c})`,
  (c) => `echo x > >(${c})`,
  (c) => `if true; then ${c}; fi`,
  (c) => `if ${c}; then :; fi`,
  (c) => `while true; do ${c}; break; done`,
  (c) => `for i in 1; do ${c}; done`,
  (c) => `case a in a) ${c};; esac`,
  (c) => `f() { ${c}; }; f`,
  (c) => `function g { ${c}; }; g`,
  (c) => `bash -c ${sq(c)}`,
  (c) => `sh -c ${sq(c)}`,
  (c) => `bash -c ${sq(`sh -c ${sq(c)}`)}`,
  (c) => `eval ${sq(c)}`,
  (c) => `bash <<'EOF'\n${c}\nEOF`,
  (c) => `bash <<< ${sq(c)}`,
  (c) => `echo ${sq(c)} | bash`,
  (c) => `source <(echo ${sq(c)})`,
  (c) => `x=$(${c})`,
  (c) => `declare y=$(${c})`,
  (c) => `[[ -n $(${c}) ]]`,
  (c) => `: \${x:=$(${c})}`,
  (c) => `echo "\${x:-$(${c})}"`,
  (c) => `${c} &`,
  (c) => `! ${c}`,
  (c) => `time ${c}`,
  (c) => `exec ${c}`,
  (c) => `cat <<EOF\n$(${c})\nEOF`,
  (c) => `ls\n${c}`,
  (c) => `sudo ${c}`,
  (c) => `env ${c}`,
  (c) => `timeout 5 ${c}`,
  (c) => `nohup ${c} &`,
  (c) => `FOO=1 ${c}`,
  // issue 11 class 1: places tree-sitter-bash reads as data and bash as code
  (c) => `echo \${x:-\`${c}\`}`,
  (c) => `x=a; echo \${x#\`${c}\`}`,
  (c) => `x=a; echo \${x/a/$(${c})}`,
  (c) => `echo \${x:-<(${c})}`,
  (c) => `echo "\${x:-'$(${c})'}"`,
  (c) => `cat <<EOF\n\${x:-\`${c}\`}\nEOF`,
  (c) => `echo $(( '$(${c})' ))`,
  (c) => `echo $((${c}) )`,
  (c) => `((${c}) )`,
  (c) => `echo $'\\\\' ; ${c} # '`,
  (c) => `echo "$\\\n(${c})"`,
  // issue 11 classes 2, 3 and 9: state and stored code bash runs
  (c) => `true\n\\${c}`,
  (c) => `trap ${sq(c)} EXIT`,
  (c) => `coproc ${c}`,
  (c) => `coproc w { ${c}; }; wait`,
  (c) => `{ ${c}; } < /dev/null`,
  (c) => `if true; then ${c}; fi <<< x`,
  (c) => `f() { ${c}; }; f`,
  (c) => `f() { ${c}; }; command f || true`,
  (c) => `builtin eval ${sq(c)}`,
  (c) => `mapfile -C ${sq(c)} -c 1 <<< x`,
  (c) => `PS4='$(${c})'; set -x; :`,
  (c) => `echo x | xargs -I{} ${c}`,
  (c) => `cd /tmp && ${c}`,
];

/** Bash features that run code less obviously; `rm -f x` is the command that should be seen. */
export const TRICKS: string[] = [
  // not executed at all
  `echo '$(rm -f x)'`,
  `cat <<'EOF'\n$(rm -f x)\nEOF`,
  `ls # ; rm -f x`,
  `: \${x:+$(rm -f x)}`,
  `false && rm -f x`,
  `cat <<EOF\nEOF \nrm -f x\nEOF`,
  // executed, by separators bash sees and a reader might not
  `ls #\nrm -f x`,
  `ls \\\n; rm -f x`,
  `cat <<EOF\nhello\nEOF\nrm -f x`,
  `cat <<EOF; rm -f x\nhello\nEOF`,
  `cat <<-EOF\n\tEOF\nrm -f x`,
  `ls;rm -f x`,
  `ls&&rm -f x`,
  `ls|rm -f x`,
  `ls |& rm -f x`,
  `{rm,-f,x}`,
  `echo {a,b}$(rm -f x)`,
  `rm\${IFS}-f\${IFS}x`,
  // substitutions in odd places
  `case $(rm -f x) in *) ;; esac`,
  `for i in $(rm -f x); do :; done`,
  `[ -n "$(rm -f x)" ]`,
  `echo $((1 + $(rm -f x; echo 1)))`,
  `echo $[ $(rm -f x; echo 1) ]`,
  `a=($(rm -f x))`,
  `export E=$(rm -f x)`,
  `readonly R=$(rm -f x)`,
  `echo \${x#$(rm -f x)}`,
  `x=a; echo \${x#$(rm -f x)}`,
  `x=a; echo "\${x^^<(rm -f x)}"`,
  `echo "\${x:-$'\\x24(rm -f x)'}"`,
  `(( x = $'\\x60rm -f x\\x60' ))`,
  `TZ=UTC\r rm -f x`,
  `echo SAFE \\\r\nrm -f x`,
  `echo \${x/$(rm -f x)/}`,
  `echo \${a[$(rm -f x; echo 0)]}`,
  `echo $(< <(rm -f x))`,
  `diff <(ls) <(rm -f x)`,
  `: <(rm -f x)`,
  `exec {fd}> >(rm -f x)`,
  `coproc rm -f x`,
  `{ rm -f x; } 2>&1`,
  `rm -f x 2>&1 | cat`,
  `echo >(rm -f x)`,
  // arithmetic evaluation of strings
  `let 'a[$(rm -f x)]=1'`,
  `[[ -v 'a[$(rm -f x)]' ]]`,
  `v='a[$(rm -f x)]'; echo $((v))`,
  `declare -i n; n='a[$(rm -f x)]'`,
  `printf -v 'a[$(rm -f x)]' %s 1`,
  `test -v 'a[$(rm -f x)]'`,
  // prompt expansion, traps, hooks
  `x='$(rm -f x)'; echo \${x@P}`,
  `PS4='$(rm -f x)'; set -x; :`,
  `trap 'rm -f x' EXIT`,
  `trap 'rm -f x' ERR; false`,
  `trap 'rm -f x' DEBUG; :`,
  `trap 'rm -f x' RETURN; f() { :; }; f`,
  `mapfile -t -c 1 -C 'rm -f x #' arr <<< line`,
  `compgen -C 'rm -f x' w`,
  `echo 'rm -f x' > /tmp/e; BASH_ENV=/tmp/e bash -c :`,
  `echo 'rm -f x' > /tmp/e; . /tmp/e`,
  `source /dev/stdin <<< 'rm -f x'`,
  `. <(printf '%s\\n' 'rm -f x')`,
  `bash < <(echo 'rm -f x')`,
  `exec 3<<<'rm -f x'; bash <&3`,
  `bash -s <<< 'rm -f x'`,
  `sh -s -- a <<< 'rm -f x'`,
  `bash /dev/stdin <<< 'rm -f x'`,
  `echo 'rm -f x' > /tmp/s.sh; bash /tmp/s.sh`,
  `echo 'rm -f x' > /tmp/s.sh; sh /tmp/s.sh`,
  `echo 'rm -f x' > /tmp/s.sh; source /tmp/s.sh`,
  // names bash resolves differently from how they read
  `hash -p /usr/bin/rm ls; ls x`,
  `enable -n echo; echo x`,
  `alias ls=rm\nls -f x`,
  `shopt -s expand_aliases\nalias ls=rm\nls -f x`,
  `shopt -s expand_aliases; alias ls=rm; ls -f x`,
  `ls() { rm -f x; }; ls`,
  `function cat { rm -f x; }; cat y`,
  `cd /usr/bin && ./rm -f x`,
  `cd /bin; ./rm -f x`,
  `PATH=/usr/sbin:$PATH rm -f x`,
  `command -p rm -f x`,
  `builtin command rm -f x`,
  `exec -a ls rm -f x`,
  `set -- rm -f x; "$@"`,
  `c=rm; $c -f x`,
  `read -r c <<< rm; $c -f x`,
  `IFS=,; c=rm,-f,x; $c`,
  `a=(rm -f x); "\${a[@]}"`,
  `x=rm; \${x} -f x`,
  `\${!v-rm} -f x`,
  `declare -n r=c; c=rm; $r -f x`,
  `printf -v c %s rm; $c -f x`,
  `type rm; which rm`,
  `command -v rm`,
  // nested shells and wrappers
  `bash -c 'rm -f x' sh`,
  `bash -c -- 'rm -f x'`,
  `bash -xc 'rm -f x'`,
  `bash -ec 'rm -f x'`,
  `sh -c "rm -f x"`,
  `bash -c "$'rm -f x'"`,
  `eval "rm" "-f" "x"`,
  `eval $'rm -f x'`,
  `eval 'eval "rm -f x"'`,
  `sudo -u nobody rm -f x`,
  `env -i PATH=/bin rm -f x`,
  `timeout -s KILL 5 rm -f x`,
  `nice -n 5 rm -f x`,
  `xargs rm -f <<< x`,
  `find . -exec rm -f {} \\;`,
  `time -p rm -f x`,
  `! rm -f x`,
  `until rm -f x; do :; done`,
  `select i in a; do rm -f x; break; done <<< 1`,
  `while read -r l; do rm -f "$l"; done <<< x`,
  `echo x | while read -r l; do rm -f "$l"; done`,
  `for ((i = 0; i < 1; i++)); do rm -f x; done`,
  `[[ $(rm -f x) ]] && ls`,
  `(( $(rm -f x; echo 0) )) || ls`,
];

/** Every generated command, deterministically. */
export function generateCommands(): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (c: string) => {
    if (!seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  };
  // each spelling of rm, in each context
  for (const s of spellings('rm')) for (const ctx of CONTEXTS) add(ctx(`${s} -f x`));
  // a read-only program (verdicts that would otherwise be allow), in every context, plainly
  for (const ctx of CONTEXTS) add(ctx('cat README'));
  // two contexts deep: every pair, with ls
  for (let i = 0; i < CONTEXTS.length; i += 3) for (let j = 1; j < CONTEXTS.length; j += 5) add(CONTEXTS[i](CONTEXTS[j]('ls')));
  for (const t of TRICKS) add(t);
  return out;
}
