import { describe, expect, it } from 'vitest';
import { EventBus } from './bus.js';

describe('EventBus', () => {
  it('hands an event to the after-commit subscribers of its type, in the order they subscribed', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.afterCommit(['video.changed', 'video.deleted'], (event) => {
      seen.push(`catalog ${event.type} ${event.videoId}`);
    });
    const stop = bus.afterCommit('video.deleted', (event) => {
      seen.push(`records ${event.videoId}`);
    });
    await bus.publish({ type: 'video.deleted', videoId: 3 });
    await bus.publish({ type: 'profile.changed', userId: 1 });
    stop();
    await bus.publish({ type: 'video.deleted', videoId: 4 });
    expect(seen).toEqual(['catalog video.deleted 3', 'records 3', 'catalog video.deleted 4']);
  });

  it('reports a failing subscriber and goes on with the next', async () => {
    const bus = new EventBus();
    const reported: string[] = [];
    bus.reportError = (error, context) => reported.push(`${context.event}: ${(error as Error).message}`);
    const seen: number[] = [];
    bus.afterCommit('profile.changed', async () => {
      throw new Error('down');
    });
    bus.afterCommit('profile.changed', (event) => {
      seen.push(event.userId);
    });
    await bus.publish({ type: 'profile.changed', userId: 9 });
    expect(reported).toEqual(['profile.changed: down']);
    expect(seen).toEqual([9]);
  });

  it('refuses two durable subscribers of one name: they would share one stored position', () => {
    const bus = new EventBus();
    const subscriber = { name: 'records', types: ['game.settled'] as const, handle: async () => {} };
    bus.durable(subscriber);
    expect(() => bus.durable(subscriber)).toThrow(/registered already/);
    expect(bus.durables()).toHaveLength(1);
  });
});
