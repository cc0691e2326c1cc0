// What a verifier run caught, for the tests: the kind and one-line message of its VerificationError, or
// kind 'passed' when it passed (so an expectation of a failure fails readably); any other error is rethrown.
import { VerificationError } from '../verification-error.js';

export async function verificationFailure(run: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof VerificationError) return { kind: error.kind, message: error.message };
    throw error;
  }
  return { kind: 'passed', message: '' };
}
