/** Named predicates for the disk-write rules (rules/builtin/disk-write.json). */
import type { Subject } from '../subject.js';
import { requires, type Predicate } from './programs.js';

/**
 * Storage (and raw memory) devices: whole disks, partitions, device-mapper and LVM volumes, RAID,
 * loop and network block devices, macOS disks, /dev/mem. The path class `device` is wider (it
 * also covers /dev/shm, serial ports, /dev/tcp…), so rules about wiping storage use this instead.
 */
const BLOCK_DEVICE = new RegExp(
  '^/dev/(' +
    [
      '[shv]d[a-z]+[0-9]*', // SCSI/SATA, IDE, virtio
      'xvd[a-z]+[0-9]*', // Xen
      'nvme[0-9]+(n[0-9]+(p[0-9]+)?)?', // NVMe controller, namespace, partition
      'mmcblk[0-9]+(p[0-9]+)?', // SD / eMMC
      'r?disk[0-9]+(s[0-9]+)*', // macOS
      'md[0-9]+(p[0-9]+)?', // RAID
      'dm-[0-9]+',
      'loop[0-9]+(p[0-9]+)?',
      'nbd[0-9]+(p[0-9]+)?',
      'sr[0-9]+',
      'fd[0-9]+', // floppy (/dev/fd/N is a descriptor, not matched)
      'zd[0-9]+',
      'rbd[0-9]+',
      'bcache[0-9]+',
      'mtd(block)?[0-9]+',
      'ubi[0-9_]*',
      'mem',
      'kmem',
      'port',
      'root',
      // /dev/mapper/x, /dev/md/x, /dev/disk/by-id/x, /dev/VG/LV: any sub-directory that holds
      // no character devices or pseudo files.
      '(?!(shm|pts|pty|tty|vc|fd|tcp|udp|snd|input|net|dri|serial|bus|char|mqueue|hugepages|cpu|usb|v4l|vfio|dma_heap|cuse|hidraw|gpiochip|infiniband|vhost-net|fuse)/)[^/]+/.+',
    ].join('|') +
    ')$',
);

/** Is this absolute path a storage device? */
export function isBlockDevice(path: string): boolean {
  // The prefix test settles nearly every path (the pattern is anchored at /dev/) without the regex.
  return path.startsWith('/dev/') && BLOCK_DEVICE.test(path);
}

/** The command writes to (or deletes) a storage device, by operand, option or redirect. */
function writesBlockDevice(s: Subject): boolean {
  return s.ops.some((o) => (o.kind === 'Write' || o.kind === 'Delete') && o.path !== undefined && isBlockDevice(o.path));
}

/** The command's shell redirect writes to a storage device (`> /dev/sda`, `cat x >> /dev/nvme0n1`). */
function redirectsToBlockDevice(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Write' && o.source === 'redirect' && o.path !== undefined && isBlockDevice(o.path));
}

/**
 * The command names a storage device anywhere: as an operand, an option value (`--device=/dev/sdb`,
 * `of=/dev/sda`), or through an operation. For disk tools shellgate has no spec for.
 */
function targetsBlockDevice(s: Subject): boolean {
  if (writesBlockDevice(s)) return true;
  // The `--opt=` / `of=` prefix is cut only from words that name a device at all.
  return s.cmd.args.some((a) => !a.dynamic && a.value.includes('/dev/') && isBlockDevice(a.value.replace(/^-{0,2}[A-Za-z][\w-]*=/, '')));
}

/** The directories whose loss breaks the system, for mount/umount. */
const SYSTEM_MOUNTS = new Set([
  '/',
  '/boot',
  '/boot/efi',
  '/etc',
  '/home',
  '/usr',
  '/var',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
  '/opt',
  '/root',
  '/srv',
  '/nix',
  '/System',
  '/Users',
]);

/** `mount --bind X /`: the mount point (the last operand) is the root or a system directory. */
function mountPointIsSystem(s: Subject): boolean {
  const ops = s.parsed.operands;
  const last = ops[ops.length - 1];
  return last !== undefined && !last.dynamic && SYSTEM_MOUNTS.has(last.value.replace(/(.)\/+$/, '$1'));
}

/** Some operand of umount is the root or a system directory. */
function unmountsSystem(s: Subject): boolean {
  return s.parsed.operands.some((a) => !a.dynamic && SYSTEM_MOUNTS.has(a.value.replace(/(.)\/+$/, '$1')));
}

export const diskWritePredicates: Record<string, Predicate> = {
  // A storage device is a path under /dev that is none of the harmless devices.
  'disk-write/writes-block-device': requires([{ features: ['Write', 'Delete'] }, { features: ['path:/dev'] }], writesBlockDevice),
  'disk-write/redirect-to-block-device': requires([{ features: ['Write'] }, { features: ['path:/dev'] }], redirectsToBlockDevice),
  'disk-write/targets-block-device': requires([{ features: ['Write', 'Delete', 'args'] }], targetsBlockDevice),
  'disk-write/mount-point-is-system': mountPointIsSystem,
  'disk-write/unmounts-system': unmountsSystem,
};
