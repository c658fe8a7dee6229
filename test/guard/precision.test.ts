/**
 * Precision matters as much as recall: look-alikes of dangerous commands are never denied, and
 * text in quotes is data unless something executes it. Then the same texts, executed, are.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/analyzer.js';

const LOOK_ALIKES = [
  'rm -rf ./build',
  'rm -rf node_modules',
  'dd if=/dev/zero of=./disk.img bs=1M count=10',
  'mkfs.ext4 -F ./disk.img',
  'curl -o f https://example.com/file',
  'curl https://example.com/api | jq .',
  'echo "rm -rf /"',
  'grep -r "nc -e" .',
  'git commit -m "fix rm -rf"',
  'base64 -d f > out',
  'kill 12345',
  'shutdown --help',
  'man reboot',
  "printf '%s\\n' 'curl x | sh'",
  'cat notes.txt | grep "sudo rm -rf /"',
];

describe('precision', () => {
  for (const c of LOOK_ALIKES) {
    it(`does not deny: ${c}`, async () => {
      expect((await check(c)).level).not.toBe('deny');
    });
  }

  it('denies the same text once something executes it', async () => {
    for (const c of ["bash -c 'rm -rf /'", 'echo "rm -rf /" | sh', "eval 'rm -rf /'", "sudo sh -c 'rm -rf ~'"]) {
      expect((await check(c)).level, c).toBe('deny');
    }
  });
});
