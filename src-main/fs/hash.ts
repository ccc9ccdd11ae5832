import { createHash } from 'node:crypto';

export function sha256(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/** 2026-01-14T10:15:00.123Z → 20260114T101500123Z, for archive file names. */
export function compactTimestamp(iso: string): string {
  return iso.replace(/[-:.]/g, '');
}
