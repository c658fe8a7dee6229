/**
 * The credential-access rules judge what is read or written, not which program does it: the
 * password hashes read through any program and any spelling of the path are denied, as is any
 * change to the PAM stack, while metadata-only commands and the developer forms that stay
 * legitimate (a capture file read back, one secret's metadata) keep their level.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/analyzer.js';

const SHADOW_READERS = [
  'cat /etc/shadow',
  'tac /etc/shadow',
  'head -n 3 /etc/shadow',
  'tail -1 /etc/gshadow',
  'less /etc/shadow',
  'more /etc/master.passwd',
  'sort /etc/shadow',
  'sed -n p /etc/shadow',
  'awk 1 /etc/shadow',
  'grep root /etc/shadow',
  'cut -d: -f2 /etc/shadow',
  'strings /etc/shadow',
  'xxd /etc/shadow',
  'base64 /etc/shadow',
  'openssl base64 -in /etc/shadow',
  'dd if=/etc/shadow of=/tmp/s',
  'cp /etc/shadow ./s',
  'rsync /etc/shadow /tmp/',
  'tar cf /tmp/s.tar /etc/shadow',
  'zip /tmp/s.zip /etc/shadow',
  'perl -ne print /etc/shadow',
  'while read l; do echo "$l"; done < /etc/shadow',
  'node -e \'console.log(require("fs").readFileSync("/etc/shadow", "utf8"))\'',
  "printf 'e /etc/shadow\\n,p\\n' | ed",
  'ed -s /etc/shadow',
  'getent shadow',
  'cat /etc/sha?ow',
  'find /etc -name shadow -exec cat {} \\;',
];

const WRAPPERS = ['sudo ', 'doas ', 'env ', 'timeout 9 ', 'nohup ', 'nice '];

describe('credential-access/shadow-read', () => {
  it.each(SHADOW_READERS)('denies reading the hashes: %s', async (command) => {
    const v = await check(command);
    expect(v.level).toBe('deny');
    expect(v.findings.map((f) => f.rule)).toContain('credential-access/shadow-read');
  });

  it.each(WRAPPERS)('keeps the deny under a wrapper: %s', async (wrapper) => {
    const v = await check(`${wrapper}cat /etc/shadow`);
    expect(v.level).toBe('deny');
    expect(v.findings.map((f) => f.rule)).toContain('credential-access/shadow-read');
  });

  it.each(['stat -c %a /etc/shadow', 'ls -l /etc/shadow', 'sha256sum /etc/shadow', 'cat /etc/*', 'getent passwd root', 'find / -group shadow'])(
    'leaves metadata and whole-directory reads to the other rules: %s',
    async (command) => {
      const v = await check(command);
      expect(v.findings.map((f) => f.rule)).not.toContain('credential-access/shadow-read');
    },
  );
});

describe('credential-access/pam-config-write', () => {
  it.each([
    "sed -i '1i auth sufficient pam_permit.so' /etc/pam.d/sudo",
    'echo "auth optional pam_exec.so /tmp/x" >> /etc/pam.d/common-auth',
    'tee -a /etc/pam.d/sshd < line.txt',
    'cp evil.so /lib/x86_64-linux-gnu/security/pam_unix.so',
    'mv /tmp/pam.conf /etc/pam.conf',
    'rm -f /etc/pam.d/su',
  ])('denies changing the authentication stack, with or without sudo: %s', async (command) => {
    for (const c of [command, `sudo ${command}`]) {
      const v = await check(c);
      expect(v.level, c).toBe('deny');
      expect(
        v.findings.map((f) => f.rule),
        c,
      ).toContain('credential-access/pam-config-write');
    }
  });
});

describe('ask-level credential rules', () => {
  it.each([
    ['kubectl get secret db -o yaml', 'credential-access/kubernetes-secret-read'],
    ['gh auth token', 'credential-access/cloud-token-print'],
    ['tcpdump -i eth0 port 80', 'credential-access/network-sniffing'],
    ['security find-generic-password -s github -w', 'credential-access/password-store-read'],
  ])('ask, never deny, for what developers do on purpose: %s', async (command, rule) => {
    const v = await check(command);
    expect(v.level).toBe('ask');
    expect(v.findings.find((f) => f.rule === rule)?.category).toBe('credential-access');
  });

  it.each([
    'tcpdump -r capture.pcap',
    'kubectl get secrets',
    'aws ecr get-login-password | docker login --username AWS --password-stdin 1.dkr.ecr.example.com',
  ])('leaves the look-alikes without a credential-access finding: %s', async (command) => {
    const v = await check(command);
    expect(v.findings.filter((f) => f.category === 'credential-access')).toEqual([]);
  });
});
