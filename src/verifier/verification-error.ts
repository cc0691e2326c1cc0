// What the verifier found wrong, by kind, so that callers (and tests) can tell a forged signature from a
// rewritten history or a record the profile misstates without reading the message.

// 'served': a tile or proof the site serves differs from the tree of the entries it signed. 'grade': a
// grade the log's own evidence (the revealed pick, the logged scores) does not give.
export type VerificationErrorKind =
  | 'signature'
  | 'root'
  | 'consistency'
  | 'record'
  | 'entry'
  | 'reveal'
  | 'key'
  // 'witness': too few of the required witnesses cosigned the checkpoint (docs/decisions/026).
  | 'witness'
  | 'network'
  | 'served'
  | 'grade';

export class VerificationError extends Error {
  override readonly name = 'VerificationError';

  constructor(
    readonly kind: VerificationErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** An Error's message, or the thrown value as text: the common formats throw Errors saying what is wrong. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
