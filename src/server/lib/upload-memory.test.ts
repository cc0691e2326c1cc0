import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { COLLECT_EVERY_BYTES, createUploadMemory, youngGenerationCollector } from './upload-memory.js';

const MB = 1024 * 1024;

describe('upload memory', () => {
  it('collects once every 4 MB of upload bytes, whatever the chunk sizes', () => {
    expect(COLLECT_EVERY_BYTES).toBe(4 * MB);
    const collect = vi.fn();
    const memory = createUploadMemory(collect);
    for (let i = 0; i < 63; i++) memory.received(64 * 1024); // 4 MB - 64 KB
    expect(collect).not.toHaveBeenCalled();
    memory.received(64 * 1024);
    expect(collect).toHaveBeenCalledTimes(1);
    memory.received(2 * MB);
    memory.received(1 * MB);
    expect(collect).toHaveBeenCalledTimes(1);
    memory.received(1 * MB);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('goes on counting without a collector', () => {
    const memory = createUploadMemory(null);
    expect(() => memory.received(64 * MB)).not.toThrow();
  });

  it("gets V8's collector without leaving a global gc behind", () => {
    expect(youngGenerationCollector()).toBeTypeOf('function');
    expect('gc' in globalThis).toBe(false);
  });

  it('really frees dropped request-sized buffers when it runs', async () => {
    const collect = youngGenerationCollector();
    if (!collect) throw new Error('no collector on this runtime');
    const outside = () => process.memoryUsage().arrayBuffers;
    const before = outside();
    // What the HTTP parser leaves behind: 100 buffers of 64 KB, each with its own memory, then dropped.
    const buffers: Buffer[] = [];
    for (let i = 0; i < 100; i++) buffers.push(Buffer.allocUnsafeSlow(64 * 1024).fill(i));
    expect(outside() - before).toBeGreaterThanOrEqual(100 * 64 * 1024);
    buffers.length = 0;
    collect();
    // The sweeper frees their memory on another thread: give it a moment (no timing is judged here).
    for (let turn = 0; turn < 100 && outside() - before >= 10 * 64 * 1024; turn++) await sleep(10);
    expect(outside() - before).toBeLessThan(10 * 64 * 1024);
  });
});
