// A setup file of the API project (vitest.config.ts): a test fails when any response it caused does not match
// the API document (api-contract.ts); requests of a file's before/after hooks count towards its tests too.
import { afterAll, afterEach } from 'vitest';
import { takeContractViolations } from './api-contract.js';

function failOnViolations(): void {
  const violations = takeContractViolations();
  if (violations.length === 0) return;
  throw new Error(
    `Responses that do not match the API document (GET /api/openapi.json):\n- ${violations.join('\n- ')}`,
  );
}

afterEach(failOnViolations);
afterAll(failOnViolations);
