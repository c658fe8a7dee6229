/** Named predicates for the disk-write rules (rules/builtin/disk-write.json). */
import picomatch from 'picomatch';
import type { Subject } from '../subject.js';
import type { Operation } from '../../ops/types.js';
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
      'n?st[0-9]+[lma]?', // SCSI tape, rewinding and not (Linux)
      'n?sa[0-9]+(\\.[0-9])?', // SCSI tape (FreeBSD)
      'n?r?mt[0-9]+', // tape (AIX, old Linux)
      'n?ht[0-9]+', // IDE tape
      'tape',
      'sg[0-9]+', // SCSI generic: raw commands to a disk or tape, writes included
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

/**
 * One name of each kind of storage device, for globs: `/dev/sd?`, `/dev/sd[a-z]`, `/dev/nvme*`
 * and `/dev/disk/by-id/*` may each expand to a disk if they match one of these.
 */
const SAMPLE_DEVICES = [
  '/dev/sda',
  '/dev/sda1',
  '/dev/hda',
  '/dev/vda1',
  '/dev/xvda',
  '/dev/nvme0n1',
  '/dev/nvme0n1p1',
  '/dev/mmcblk0',
  '/dev/mmcblk0p1',
  '/dev/disk2',
  '/dev/disk2s1',
  '/dev/rdisk2',
  '/dev/md0',
  '/dev/dm-0',
  '/dev/mapper/vg0-root',
  '/dev/disk/by-id/ata-disk',
  '/dev/disk/by-uuid/0000-0000',
  '/dev/loop0',
  '/dev/nbd0',
  '/dev/fd0',
  '/dev/st0',
  '/dev/nst0',
  '/dev/sa0',
  '/dev/sg0',
  '/dev/sr0',
];

/** A glob under /dev that can expand to a storage device. Checked once per pattern: a line repeats its globs. */
const globCache = new Map<string, boolean>();

function globMayBeBlockDevice(pattern: string): boolean {
  if (!pattern.startsWith('/dev/')) return false;
  let hit = globCache.get(pattern);
  if (hit === undefined) {
    try {
      const m = picomatch(pattern, { dot: true });
      hit = SAMPLE_DEVICES.some((d) => m(d));
    } catch {
      hit = false;
    }
    globCache.set(pattern, hit);
  }
  return hit;
}

/** The operation's path is a storage device, or a glob that can expand to one. */
export function onBlockDevice(o: Operation): boolean {
  if (o.path === undefined) return false;
  return o.glob ? globMayBeBlockDevice(o.path) : isBlockDevice(o.path);
}

/** The command writes to (or deletes) a storage device, by operand, option or redirect. */
function writesBlockDevice(s: Subject): boolean {
  return s.ops.some((o) => (o.kind === 'Write' || o.kind === 'Delete') && onBlockDevice(o));
}

/** The command writes data into a storage device (a Write, not a Delete: `rm /dev/sdb` removes a node udev makes again). */
function writesIntoBlockDevice(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Write' && onBlockDevice(o));
}

/** The command's shell redirect writes to a storage device (`> /dev/sda`, `cat x >> /dev/nvme0n1`). */
function redirectsToBlockDevice(s: Subject): boolean {
  return s.ops.some((o) => o.kind === 'Write' && o.source === 'redirect' && onBlockDevice(o));
}

/** A storage device named in program text (`'/dev/sda'`, `"/dev/nvme0n1p2"`). */
const DEVICE_LITERAL = /\/dev\/[\w./-]+/g;

/**
 * Program text opens something for writing: Python/Ruby modes (`'wb'`, `'r+b'`, `"a"`), POSIX flags
 * (`O_WRONLY`, `O_RDWR`), Perl's `>`/`+<` modes, Node's write calls.
 */
const OPENS_FOR_WRITING =
  /['"](?:[rwa]\+?b?|[rwa]b\+|w)['"]|\bO_(?:WRONLY|RDWR)\b|['"]\s*\+?[>]{1,2}\s*(?:\/dev\/|['"])|['"]\+<|\b(?:writeFileSync|writeFile|createWriteStream|openSync\s*\([^)]*['"][wa+])|\bIO\.(?:write|binwrite)\b|\bFile\.(?:write|binwrite)\b|\bsysopen\b/;

/**
 * An interpreter's inline program writes a storage device: `python3 -c "open('/dev/sda','wb')…"`,
 * `perl -e 'open(F, ">/dev/sda")…'`, `node -e "fs.writeFileSync('/dev/sdb', …)"`. Reading one
 * (`open('/dev/sda','rb')`) names no write mode and does not match.
 */
function codeWritesBlockDevice(s: Subject): boolean {
  const code = s.code;
  if (code === null || !code.includes('/dev/')) return false;
  const named = code.match(DEVICE_LITERAL) ?? [];
  if (!named.some((p) => isBlockDevice(p))) return false;
  // `'r'`/`'rb'` alone is a read: a write mode must be there too.
  return OPENS_FOR_WRITING.test(code.replace(/['"]rb?['"]/g, ''));
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
  'disk-write/writes-into-block-device': requires([{ features: ['Write'] }, { features: ['path:/dev'] }], writesIntoBlockDevice),
  'disk-write/redirect-to-block-device': requires([{ features: ['Write'] }, { features: ['path:/dev'] }], redirectsToBlockDevice),
  'disk-write/code-writes-block-device': codeWritesBlockDevice,
  'disk-write/targets-block-device': requires([{ features: ['Write', 'Delete', 'args'] }], targetsBlockDevice),
  'disk-write/mount-point-is-system': mountPointIsSystem,
  'disk-write/unmounts-system': unmountsSystem,
};
