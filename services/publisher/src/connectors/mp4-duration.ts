/**
 * The duration in seconds of an MP4/MOV file, from its movie header (`moov/mvhd`: timescale and
 * duration, version 0 or 1); undefined when the bytes hold no readable header (not an MP4/MOV).
 */
export function mp4DurationSeconds(bytes: Buffer): number | undefined {
  const moov = findBox(bytes, 0, bytes.length, 'moov');
  if (!moov) return undefined;
  const mvhd = findBox(bytes, moov.start, moov.end, 'mvhd');
  if (!mvhd || mvhd.end - mvhd.start < 24) return undefined;
  const version = bytes[mvhd.start];
  if (version === 1) {
    if (mvhd.end - mvhd.start < 32) return undefined;
    const timescale = bytes.readUInt32BE(mvhd.start + 20);
    const duration = Number(bytes.readBigUInt64BE(mvhd.start + 24));
    return timescale ? duration / timescale : undefined;
  }
  const timescale = bytes.readUInt32BE(mvhd.start + 12);
  const duration = bytes.readUInt32BE(mvhd.start + 16);
  return timescale ? duration / timescale : undefined;
}

/** The first box of `type` among the boxes in [from, to): its payload's range. */
function findBox(bytes: Buffer, from: number, to: number, type: string): { start: number; end: number } | undefined {
  let at = from;
  while (at + 8 <= to) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return undefined;
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return undefined;
    if (bytes.toString('latin1', at + 4, at + 8) === type) return { start: at + header, end: at + size };
    at += size;
  }
  return undefined;
}
