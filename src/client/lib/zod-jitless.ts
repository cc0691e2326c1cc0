// zod compiles object parsers with `new Function` unless it runs jitless, and even its check whether eval is
// allowed is reported as a violation of our Content-Security-Policy (no 'unsafe-eval'). zod keeps
// its settings in this global (zod/v4/core: globalThis.__zod_globalConfig), so setting it here, before any
// schema is built, turns the JIT off without bringing zod into the entry chunk. The server keeps the JIT.
// tests/e2e/page-audits.spec.ts fails on any `securitypolicyviolation`, should an upgrade change this.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;

export {};
