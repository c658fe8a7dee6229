/** What an agent's command line typically carries: every secret gone, the command still readable. */
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactValue } from '../../src/auto/redact.js';

// [command, the secret that must go, words that must stay]
const CASES: [string, string, string[]][] = [
  [
    'curl -H "Authorization: Bearer abc.def-123_XYZ" https://api.example.com/v1',
    'abc.def-123_XYZ',
    ['curl -H "Authorization: Bearer ', '" https://api.example.com/v1'],
  ],
  ["curl -H 'authorization: token 0123456789abcdef' https://x.example", '0123456789abcdef', ["' https://x.example"]],
  ['curl -H "Cookie: session=s3ss10nv4lu3" https://x.example', 's3ss10nv4lu3', ['" https://x.example']],
  ['curl -H "X-Api-Key: k3yk3yk3y" https://x.example', 'k3yk3yk3y', ['X-Api-Key: ']],
  ['export GITHUB_TOKEN=abcdef123456; gh pr list', 'abcdef123456', ['export GITHUB_TOKEN=', '; gh pr list']],
  ['export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 && gh pr list', 'ghp_abcdefghijklmnopqrstuvwxyz0123', ['&& gh pr list']],
  ['export OPENAI_API_KEY="sk-proj-abcdefghijklmnopqrstuvwxyz"', 'abcdefghijklmnopqrstuvwxyz', ['export OPENAI_API_KEY=']],
  ['mysql -u root -pS3cr3tPw mydb -e "select 1"', 'S3cr3tPw', ['mysql -u root -p', ' mydb -e "select 1"']],
  ['mysqldump --password=hunter2 db > dump.sql', 'hunter2', ['mysqldump --password=', ' db > dump.sql']],
  ['psql --password hunter2 -h db', 'hunter2', ['-h db']],
  ['some-cli --api-key=k3yk3yk3y --client-secret s3cr3tv4l run', 'k3yk3yk3y', ['run']],
  ['some-cli --client-secret s3cr3tv4l run', 's3cr3tv4l', ['run']],
  ['git clone https://user:hunter2@github.com/a/b.git', 'hunter2', ['git clone https://user:', '@github.com/a/b.git']],
  ['psql postgresql://app:pa55word@db.internal:5432/app', 'pa55word', ['@db.internal:5432/app']],
  ['sshpass -p pw123456 ssh -p 22 host', 'pw123456', ['ssh -p 22 host']],
  ['docker login -u me -p pw123456 ghcr.io', 'pw123456', ['ghcr.io']],
  ['curl -s -u admin:pw123456 https://x.example | jq .', 'pw123456', ['curl -s -u admin:', ' https://x.example | jq .']],
  ['redis-cli -h cache -a pw123456 ping', 'pw123456', ['ping']],
  ['openssl enc -aes256 -pass pass:pw123456 -in f', 'pw123456', ['-in f']],
  ['MYSQL_PWD=pw123456 mysql -u root', 'pw123456', ['mysql -u root']],
  ['PGPASSWORD=pw123456 psql -h db', 'pw123456', ['psql -h db']],
  ['aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCY', 'wJalrXUtnFEMIK7MDENGbPxRfiCY', ['aws configure set aws_secret_access_key']],
  ['curl "https://api.example.com/items?api_key=abc123xyz&q=1"', 'abc123xyz', ['&q=1"']],
  ['npm config set //registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', 'npm_abcdefghijklmnopqrstuvwxyz0123456789', ['npm config set']],
  [
    "cat > ~/.ssh/id_ed25519 <<'EOF'\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\nEOF\nchmod 600 ~/.ssh/id_ed25519",
    'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU',
    ["cat > ~/.ssh/id_ed25519 <<'EOF'\n", '\nEOF\nchmod 600 ~/.ssh/id_ed25519'],
  ],
  [
    'gpg --import <<EOF\n-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF2pgpkeydata\n-----END PGP PRIVATE KEY BLOCK-----\nEOF',
    'lQOYBF2pgpkeydata',
    ['gpg --import <<EOF\n'],
  ],
  ['cat > .env <<EOF\nDATABASE_PASSWORD=pw123456\nSTRIPE_KEY=sk_live_abcdefghijklmnopqrstuvwx\nDEBUG=1\nEOF', 'pw123456', ['DEBUG=1']],
  ['cat > .env <<EOF\nSTRIPE_KEY=sk_live_abcdefghijklmnopqrstuvwx\nEOF', 'abcdefghijklmnopqrstuvwx', ['cat > .env <<EOF\nSTRIPE_KEY=']],
  ['helm install app ./chart --set=API_KEY=k3yk3yk3y', 'k3yk3yk3y', ['helm install app ./chart --set=API_KEY=']],
  ['export TOKEN="unterminated s3cr3t', 's3cr3t', ['export TOKEN=']],
];

describe('redactSecrets', () => {
  it.each(CASES)('%s', (command, secret, kept) => {
    const out = redactSecrets(command);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED');
    for (const k of kept) expect(out).toContain(k);
  });

  it('leaves commands without secrets as they are', () => {
    for (const c of [
      'ls -la; mkdir -p build && cp -p a b',
      'git commit -m "fix password check"',
      'echo $PWD; cd "$OLDPWD"',
      'GIT_AUTHOR_NAME=me git commit',
      'mysql -u root -p mydb',
      'docker login --password-stdin -u me ghcr.io',
      'TOKEN=$(gh auth token) make release',
      'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
      'ssh -p 2222 host uptime',
    ]) {
      expect(redactSecrets(c)).toBe(c);
    }
  });

  it("uses the first password option of a program, not a later command's option of the same letter", () => {
    expect(redactSecrets('sshpass -p hunter2 ssh -p 22 host')).toBe('sshpass -p [REDACTED] ssh -p 22 host');
  });
});

describe('text an attacker shapes', () => {
  // Each of these took minutes with patterns that retried a match from every position; the hook
  // runs redaction on every call, so it must stay linear. A regression shows as a timed-out test.
  it.each([
    ['a run of dotted words', 'a.'.repeat(130_000)],
    ['a run of dashed names', 'key-'.repeat(60_000)],
    ['many programs without an option', 'mysql -p '.repeat(30_000)],
    ['many unclosed quotes', 'TOKEN="'.repeat(30_000)],
    ['a long scheme-like run', 'a+'.repeat(120_000)],
  ])('%s, then a secret at the end', (_name, filler) => {
    const out = redactSecrets(`${filler} ; export GITHUB_TOKEN=s3cr3tvalue`);
    expect(out).not.toContain('s3cr3tvalue');
  });
});

describe('redactValue (tool arguments)', () => {
  it('redacts values under keys named like secrets and secrets inside every string', () => {
    const v = redactValue({
      url: 'https://u:hunter2@x.example/a',
      headers: { Authorization: 'Bearer abc123', Accept: 'json' },
      env: { GITHUB_TOKEN: 'plain', PATH: '/bin' },
      apiKey: 'k',
      list: ['AKIAABCDEFGHIJKLMNOP'],
    });
    const s = JSON.stringify(v);
    for (const secret of ['hunter2', 'abc123', 'plain', '"k"', 'AKIAABCDEFGHIJKLMNOP']) expect(s).not.toContain(secret);
    expect(v).toMatchObject({ headers: { Accept: 'json' }, env: { PATH: '/bin' } });
  });
});
