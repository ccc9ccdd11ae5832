import { closeSync, openSync, readSync } from 'node:fs';

/**
 * What a native binary was built for, read from its header (ELF, Mach-O, PE) rather than guessed
 * from its name or folder: a library copied into the wrong folder, or a binding left over from the
 * packaging machine, is caught by what it is, not where it sits.
 */
export type BinaryOs = 'linux' | 'darwin' | 'win32';
export interface BinaryKind {
  os: BinaryOs;
  /** Architectures the file holds (a universal Mach-O holds several). 'other' for one Forge never targets. */
  arch: string[];
}

const ELF_MACHINE: Record<number, string> = { 62: 'x64', 183: 'arm64', 3: 'ia32', 40: 'arm' };
const MACHO_CPU: Record<number, string> = { 16777223: 'x64', 16777228: 'arm64', 7: 'ia32', 12: 'arm' };
const PE_MACHINE: Record<number, string> = { 34404: 'x64', 43620: 'arm64', 332: 'ia32', 452: 'arm' };

function readHead(path: string, length: number, position = 0): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, position);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The OS and architectures a file is native code for, or undefined when it is not a native binary. */
export function nativeKind(path: string, size: number): BinaryKind | undefined {
  if (size < 64) return undefined;
  const head = readHead(path, 64);
  // ELF: 7f 45 4c 46; e_machine at 18 (little-endian on every target Forge ships).
  if (head.readUInt32BE(0) === 0x7f454c46) return { os: 'linux', arch: [ELF_MACHINE[head.readUInt16LE(18)] ?? 'other'] };
  const magicLE = head.readUInt32LE(0);
  // Thin Mach-O, 64- or 32-bit (stored little-endian on x64 and arm64): cputype follows the magic.
  if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) return { os: 'darwin', arch: [MACHO_CPU[head.readUInt32LE(4)] ?? 'other'] };
  // Universal Mach-O (big-endian header): nfat_arch entries of 20 bytes, cputype first. Java class
  // files share the magic but their "count" is a version number far above any real slice count.
  if (head.readUInt32BE(0) === 0xcafebabe) {
    const count = head.readUInt32BE(4);
    if (count > 0 && count < 8) {
      const table = readHead(path, 8 + count * 20);
      const arch = Array.from({ length: count }, (_, i) => MACHO_CPU[table.readUInt32BE(8 + i * 20)] ?? 'other');
      return { os: 'darwin', arch };
    }
    return undefined;
  }
  // PE: "MZ", the PE header's offset at 0x3c, "PE\0\0" there, then the machine field.
  if (head.readUInt16LE(0) === 0x5a4d) {
    const peOffset = head.readUInt32LE(0x3c);
    if (peOffset + 6 > size) return undefined;
    const pe = readHead(path, 6, peOffset);
    if (pe.length === 6 && pe.readUInt32BE(0) === 0x50450000) return { os: 'win32', arch: [PE_MACHINE[pe.readUInt16LE(4)] ?? 'other'] };
  }
  return undefined;
}
