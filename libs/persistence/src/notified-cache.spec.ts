import type { ChannelSubscriber } from './database-notifications.js';
import { NotifiedCache, type NotificationSource } from './notified-cache.js';

/** A notification source the test drives: listening or not, and what arrives on each channel. */
class FakeNotifications implements NotificationSource {
  isListening = true;
  readonly subscribers = new Map<string, ChannelSubscriber[]>();

  subscribe(channel: string, subscriber: ChannelSubscriber): () => void {
    this.subscribers.set(channel, [...(this.subscribers.get(channel) ?? []), subscriber]);
    return () => undefined;
  }

  notify(channel: string, payload: string): void {
    for (const subscriber of this.subscribers.get(channel) ?? []) subscriber.notified(payload);
  }

  /** The connection drops (every subscriber is reset), or comes back (reset again). */
  setListening(listening: boolean): void {
    this.isListening = listening;
    for (const subscribers of this.subscribers.values()) for (const subscriber of subscribers) subscriber.reset();
  }
}

describe('NotifiedCache', () => {
  let notifications: FakeNotifications;
  let cache: NotifiedCache<string>;
  let now: number;
  let reads: number;
  const stored = new Map<string, string>();
  const load = (key: string) => () => {
    reads += 1;
    return Promise.resolve(stored.get(key) ?? null);
  };

  beforeEach(() => {
    notifications = new FakeNotifications();
    now = 0;
    reads = 0;
    stored.clear();
    stored.set('a', 'A1');
    cache = new NotifiedCache<string>(notifications, 'changes', 2, 10_000, () => now);
  });

  it('reads a row once, then from the copy, until its change is notified', async () => {
    expect(await cache.read('a', load('a'))).toBe('A1');
    expect(await cache.read('a', load('a'))).toBe('A1');
    expect(reads).toBe(1);
    stored.set('a', 'A2');
    notifications.notify('changes', 'a');
    expect(await cache.read('a', load('a'))).toBe('A2');
    expect(reads).toBe(2);
  });

  it('keeps no copy of a missing row', async () => {
    expect(await cache.read('nope', load('nope'))).toBeNull();
    expect(await cache.read('nope', load('nope'))).toBeNull();
    expect(reads).toBe(2);
  });

  it('reads the database on every request while notifications are down, and starts afresh when they are back', async () => {
    await cache.read('a', load('a'));
    notifications.setListening(false);
    stored.set('a', 'A2');
    expect(await cache.read('a', load('a'))).toBe('A2');
    expect(await cache.read('a', load('a'))).toBe('A2');
    expect(reads).toBe(3);
    expect(cache.size).toBe(0);
    notifications.setListening(true);
    await cache.read('a', load('a'));
    await cache.read('a', load('a'));
    expect(reads).toBe(4);
  });

  it('does not keep a read that was under way when a change was notified (it may predate the change)', async () => {
    let release: (value: string) => void = () => undefined;
    const slow = cache.read('a', () => new Promise<string>((resolve) => (release = resolve)));
    notifications.notify('changes', 'a');
    release('A-old');
    expect(await slow).toBe('A-old');
    stored.set('a', 'A-new');
    expect(await cache.read('a', load('a'))).toBe('A-new');
  });

  it('does not keep a read that was under way when the connection dropped and came back', async () => {
    let release: (value: string) => void = () => undefined;
    const slow = cache.read('a', () => new Promise<string>((resolve) => (release = resolve)));
    notifications.setListening(false);
    notifications.setListening(true);
    release('A-old');
    await slow;
    expect(cache.size).toBe(0);
  });

  it('holds a key out of the copy until its notification arrives, or for at most the hold time', async () => {
    await cache.read('a', load('a'));
    cache.hold('a');
    await cache.read('a', load('a'));
    await cache.read('a', load('a'));
    expect(reads).toBe(3);
    notifications.notify('changes', 'a');
    await cache.read('a', load('a'));
    await cache.read('a', load('a'));
    expect(reads).toBe(4);

    cache.hold('a');
    now += 10_001;
    await cache.read('a', load('a'));
    await cache.read('a', load('a'));
    expect(reads).toBe(5);
  });

  it('forgets the least recently used copy beyond its size', async () => {
    stored.set('b', 'B');
    stored.set('c', 'C');
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));
    await cache.read('a', load('a'));
    await cache.read('c', load('c'));
    expect(cache.size).toBe(2);
    reads = 0;
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));
    expect(reads).toBe(1);
  });

  it('forgets the copies a predicate picks', async () => {
    stored.set('b', 'B');
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));
    cache.forgetWhere((value) => value === 'B');
    reads = 0;
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));
    expect(reads).toBe(1);
  });
});
