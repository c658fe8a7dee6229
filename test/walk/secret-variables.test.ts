/**
 * Expanding a variable of the environment (walk/expansion-risks.ts): any name may hold a secret,
 * so only a whitelist of variables known to hold none, the special and positional parameters,
 * and the variables the line assigns itself are expanded without asking (issue 27).
 */
import { describe, expect, it } from 'vitest';
import { check, rules } from '../helpers/analyzer.js';

describe('secret-variable', () => {
  it.each([
    'echo $DB_PASS',
    'echo "$GH_PAT"',
    'printf \'%s\\n\' "$OPENAI_KEY"',
    'echo ${AWS_SESSION_TOKEN:-none}',
    'echo $X',
    'x=$DB_PASS; echo $x', // caught where the secret is expanded
    'DB_PASS=(x $DB_PASS); echo ok', // the array's words are expanded before it is assigned
    'y=$y; echo ok',
    'echo ${#DB_PASS}',
    'cat <<EOF\n$DB_URL\nEOF',
    'grep -c "$API" notes.txt',
    'top -p $PID',
  ])('%s asks', async (command) => {
    const v = await check(command);
    expect(v.level).toBe('ask');
    expect(rules(v)).toContain('secret-variable');
  });

  it.each([
    'echo $PATH',
    'echo $HOME $PWD $USER',
    'echo $BASH_VERSION $RANDOM $LINENO',
    'x=1; echo "$x"',
    'x=1 y=$x; echo $y', // bash assigns left to right
    'echo $? $# $1 "$@"',
    'echo ${DB_PASS:+set}', // expands to `set`, never to the value
    '[[ -v DB_PASS ]] && echo set',
    'for f in *.txt; do echo "$f"; done',
    'while read -r line; do echo "$line"; done < a.txt',
  ])('%s stays allow', async (command) => {
    const v = await check(command);
    expect(v.level, JSON.stringify(v.findings)).toBe('allow');
  });
});
