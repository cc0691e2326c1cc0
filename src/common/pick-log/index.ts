// The public pick log's formats (docs/pick-log.md): RFC 9162 Merkle tree, C2SP
// tlog-checkpoint inside a C2SP signed note, Ed25519. Shared by the server (which appends and proves), the
// browser's Verify and the independent verifier (which check): nothing here knows the server or the client.
export * from './base64.js';
export * from './cosignature.js';
export * from './entry.js';
export * from './merkle.js';
export * from './note.js';
