/**
 * Raw writes to storage devices are denied whatever writes them and however the device is
 * spelt: a table of device spellings (every kind of disk, partition, volume, tape and floppy
 * name) × writers (dd and its relatives, cp, cat/tee/pv, redirects, interpreters' open()), and
 * the reads and look-alikes that must stay out of the rule.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../helpers/analyzer.js';
import { isBlockDevice } from '../../../src/guard/predicates/disk-write.js';

const RULE = 'disk-write/overwrite-block-device';

/** One name of every kind of storage device a write destroys. */
const DEVICES = [
  '/dev/sda',
  '/dev/sdb2',
  '/dev/nvme0n1',
  '/dev/nvme1n1p3',
  '/dev/mmcblk0',
  '/dev/mmcblk0p1',
  '/dev/disk2', // macOS
  '/dev/rdisk2',
  '/dev/disk3s1',
  '/dev/hda1',
  '/dev/vdb',
  '/dev/xvdf1',
  '/dev/md0',
  '/dev/md/data',
  '/dev/dm-2',
  '/dev/mapper/vg0-home',
  '/dev/vg0/root',
  '/dev/disk/by-id/ata-EXAMPLE_SERIAL',
  '/dev/disk/by-uuid/0a1b2c3d',
  '/dev/disk/by-partlabel/rootfs',
  '/dev/loop0',
  '/dev/nbd0',
  '/dev/fd0', // floppy
  '/dev/st0', // tape
  '/dev/nst0',
  '/dev/sa0',
  '/dev/sg1',
];

/** Ways to write data onto a device, `DEV` standing for it. */
const WRITERS = [
  'dd if=/dev/zero of=DEV bs=1M',
  'sudo dd of=DEV if=./payload.bin conv=notrunc',
  'cp /dev/urandom DEV',
  'cat ./blob > DEV',
  'printf x >> DEV',
  'head -c 512 /dev/zero | sudo tee DEV',
  'pv ./blob > DEV',
  'sh -c "cat /dev/zero > DEV"',
  "python3 -c \"open('DEV', 'wb').write(bytes(512))\"",
  'perl -e \'open(my $f, ">", "DEV"); print $f "x"\'',
];

describe('storage devices written by any program', () => {
  for (const dev of DEVICES) {
    it(`${dev} is a storage device`, () => {
      expect(isBlockDevice(dev)).toBe(true);
    });
    for (const w of WRITERS) {
      const cmd = w.replaceAll('DEV', dev);
      it(`denies: ${cmd}`, async () => {
        const v = await check(cmd);
        expect(v.findings.map((f) => f.rule)).toContain(RULE);
        expect(v.level).toBe('deny');
      });
    }
  }

  it('denies globs that expand to disks', async () => {
    for (const cmd of ['cat /dev/zero > /dev/sd*', 'head -c 1M /dev/urandom | tee /dev/sd? /dev/nvme*n1', 'cp ./x /dev/disk/by-id/*']) {
      expect(
        (await check(cmd)).findings.map((f) => f.rule),
        cmd,
      ).toContain(RULE);
    }
  });

  it('denies the dd relatives and rescue tools when their output is a device', async () => {
    for (const cmd of [
      'dcfldd if=/dev/zero of=/dev/sdb',
      'dc3dd if=/dev/zero of=/dev/sdb',
      'sg_dd if=/dev/zero of=/dev/sg0',
      'ddrescue -f /dev/sda /dev/sdb map',
    ]) {
      expect(
        (await check(cmd)).findings.map((f) => f.rule),
        cmd,
      ).toContain(RULE);
    }
  });
});

describe('what is not a write to a device', () => {
  const HARMLESS = [
    'dd if=/dev/sda of=./disk.img bs=4M', // reading a disk into an image
    'ddrescue /dev/sdb ./rescue.img ./rescue.map',
    'cat /dev/sda | gzip > ./disk.img.gz',
    "python3 -c \"print(open('/dev/sda', 'rb').read(16))\"",
    'echo hi > /dev/null',
    'echo hi > /dev/tty',
    'cat x > /dev/stderr',
    'echo x > /dev/shm/scratch',
    'echo x > /dev/pts/0',
    'cat ./notes > ./dev/sda', // a workspace file named like a device
    'sudo chmod 660 /dev/sdb', // a device node's metadata, not its data
    'sudo resize2fs /dev/sda1', // judged by its own (ask) rule
    'dd if=ubuntu.iso of=/dev/sdb bs=4M', // flashing an image asks (flash-image-to-device)
  ];
  for (const cmd of HARMLESS) {
    it(`does not match: ${cmd}`, async () => {
      expect((await check(cmd)).findings.map((f) => f.rule)).not.toContain(RULE);
    });
  }

  it('does not take descriptors, terminals or memory filesystems for disks', () => {
    for (const p of ['/dev/null', '/dev/zero', '/dev/fd/3', '/dev/pts/1', '/dev/shm/x', '/dev/tty', '/dev/stdout', '/dev/tcp/h/80', '/dev/sdX']) {
      expect(isBlockDevice(p), p).toBe(false);
    }
  });
});
