/** Bytes needed to recognise a QuickTime file. */
export const MOV_SIGNATURE_BYTES = 12;

// Top-level atoms a classic QuickTime file (before 'ftyp' existed) may start with.
const CLASSIC_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/**
 * docs/product-decisions.md 'Security overrides': a MOV is recognised by its bytes, never by its name or type. It
 * either starts with an 'ftyp' atom whose major brand is QuickTime ('qt  '), or with one of the classic
 * atoms. An MP4 ('ftyp isom'), a PNG, text or an empty file is not a MOV.
 */
export function isQuickTime(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const size = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
  const type = String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!);
  if (type === 'ftyp') {
    if (head.length < 12 || size < 12) return false;
    return String.fromCharCode(head[8]!, head[9]!, head[10]!, head[11]!) === 'qt  ';
  }
  // Size 1 means a 64-bit size follows, 0 means "to the end of the file"; anything else covers its header.
  return CLASSIC_ATOMS.has(type) && (size === 0 || size === 1 || size >= 8);
}
