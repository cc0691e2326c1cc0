// The Verify button's check (docs/decisions/020): hash the revealed sealed pick the way the server
// sealed it (RFC 8785 bytes, SHA-256) and compare with the commitment everyone saw before the games.
import { canonicalBytes, toHex } from '#common/pick-seal.js';

export type Verification = {
  status: 'matched' | 'mismatched';
  /** What this browser computed from the revealed pick. */
  computed: string;
  /** The commitment shown on the page before the reveal. */
  expected: string;
};

/** Web Crypto's SHA-256, absent outside secure contexts (plain http on another host). */
export function webCryptoSubtle(): SubtleCrypto | null {
  return globalThis.crypto?.subtle ?? null;
}

/**
 * Recomputes the commitment of `sealed` (as /reveal returned it, salt included) and compares it with the
 * commitment shown before. Anything that changed — a leg, the selections, the salt — changes the hash.
 */
export async function verifyCommitment(
  sealed: unknown,
  expected: string,
  subtle: SubtleCrypto | null = webCryptoSubtle(),
): Promise<Verification> {
  if (!subtle) throw new Error('This browser cannot compute SHA-256 here (Web Crypto needs HTTPS).');
  const digest = await subtle.digest('SHA-256', canonicalBytes(sealed) as Uint8Array<ArrayBuffer>);
  const computed = toHex(new Uint8Array(digest));
  const shown = expected.trim().toLowerCase();
  return { status: computed === shown ? 'matched' : 'mismatched', computed, expected: shown };
}
