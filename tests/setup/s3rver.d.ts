// @20minutes/s3rver ships no types: what tests/setup/s3-server.ts uses of it.
declare module '@20minutes/s3rver' {
  const S3rver: new (options: object) => unknown;
  export default S3rver;
}
