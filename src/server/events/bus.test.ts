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

  it('hands a name shared by two apps on one database to the earliest registration still in place', () => {
    const bus = new EventBus();
    const first = { name: 'records', types: ['game.settled'] as const, handle: async () => {} };
    const second = { ...first, handle: async () => {} };
    const stopFirst = bus.durable(first);
    const stopSecond = bus.durable(second);
    expect(bus.durables()).toEqual([first]);
    stopFirst();
    expect(bus.durables()).toEqual([second]);
    stopSecond();
    expect(bus.durables()).toEqual([]);
  });
});
