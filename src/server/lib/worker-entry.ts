// Where a worker thread's code is: the compiled JavaScript beside the caller, or, under the test runner
// (TypeScript sources), a two-line module that registers tsx's loader on the worker's thread before
// importing the TypeScript file.

/** `file` is the worker's module name without extension, resolved beside `callerUrl` (import.meta.url). */
export function workerEntry(callerUrl: string, file: string): { source: URL | string; eval: boolean } {
  const url = new URL(callerUrl.endsWith('.ts') ? `./${file}.ts` : `./${file}.js`, callerUrl);
  if (url.pathname.endsWith('.js')) return { source: url, eval: false };
  const source = [
    `import('tsx/esm/api')`,
    `.then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
    `.catch((error) => { throw error; });`,
  ].join('');
  return { source, eval: true };
}
