import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { AppConfig } from '@app/shared';

/** What a subscriber to one channel hears. */
export interface ChannelSubscriber {
  /** A notification on the channel, with its payload (sent by a trigger, after its transaction committed). */
  notified(payload: string): void;
  /**
   * Notifications may have been missed (the connection dropped) or listening just (re)started:
   * everything derived from earlier notifications must be forgotten.
   */
  reset(): void;
}

const RECONNECT_DELAY_MS = 1000;
/** A connection that stops answering is given up after this long, so a silent network loss is noticed too. */
const HEARTBEAT_INTERVAL_MS = 3000;
const HEARTBEAT_TIMEOUT_MS = 3000;
const CONNECT_TIMEOUT_MS = 5000;

/**
 * PostgreSQL LISTEN on one dedicated connection, for in-process copies of database rows that several
 * instances share: triggers send NOTIFY when such rows change, and every instance forgets its copy.
 * `isListening` is true only while the connection is up and has answered its last heartbeat; copies
 * must not be trusted otherwise (read the database instead). On a lost connection every subscriber
 * is reset and the listener reconnects by itself, resetting them again once LISTEN is back.
 * With the embedded database (one process) it never listens.
 */
@Injectable()
export class DatabaseNotifications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseNotifications.name);
  private readonly channels = new Map<string, Set<ChannelSubscriber>>();
  private client: pg.Client | undefined;
  private listening = false;
  private stopping = false;
  private everConnected = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;

  constructor(private readonly config: AppConfig) {}

  get isListening(): boolean {
    return this.listening;
  }

  /** Subscribes to a channel (before or after start-up); returns the unsubscribe function. */
  subscribe(channel: string, subscriber: ChannelSubscriber): () => void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
    let subscribers = this.channels.get(channel);
    if (subscribers === undefined) {
      subscribers = new Set();
      this.channels.set(channel, subscribers);
      // A channel added while listening needs its own LISTEN; until it is confirmed, reconnecting is the simple way.
      if (this.client !== undefined) this.drop(this.client, `channel ${channel} added`);
    }
    subscribers.add(subscriber);
    return () => subscribers.delete(subscriber);
  }

  onApplicationBootstrap(): void {
    if (this.config.databaseUrl === undefined) return;
    void this.connect(this.config.databaseUrl);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    this.listening = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(url: string): Promise<void> {
    if (this.stopping) return;
    const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'notifications' });
    this.client = client;
    client.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
    client.on('error', (error) => this.drop(client, error.message));
    client.on('end', () => this.drop(client, 'connection ended'));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      this.drop(client, error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.client !== client) return;
    // Anything copied before now may have missed a notification.
    this.resetAll();
    this.listening = true;
    if (this.everConnected) this.logger.log('listening for database notifications again');
    this.everConnected = true;
    this.heartbeatTimer = setInterval(() => this.heartbeat(client), HEARTBEAT_INTERVAL_MS);
    this.heartbeatTimer.unref();
  }

  private heartbeat(client: pg.Client): void {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no heartbeat answer within ${HEARTBEAT_TIMEOUT_MS} ms`)), HEARTBEAT_TIMEOUT_MS);
    });
    Promise.race([client.query('SELECT 1'), timeout])
      .catch((error: unknown) => this.drop(client, error instanceof Error ? error.message : String(error)))
      .finally(() => clearTimeout(timer));
  }

  /** Gives up a connection (once), resets every subscriber, and schedules a new one. */
  private drop(client: pg.Client, reason: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    clearInterval(this.heartbeatTimer);
    const wasListening = this.listening;
    this.listening = false;
    this.resetAll();
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopping) return;
    if (wasListening) this.logger.warn(`database notifications lost (${reason}); reading from the database until they are back`);
    const url = this.config.databaseUrl;
    if (url === undefined) return;
    this.reconnectTimer = setTimeout(() => void this.connect(url), RECONNECT_DELAY_MS);
    this.reconnectTimer.unref();
  }

  private deliver(channel: string, payload: string): void {
    for (const subscriber of this.channels.get(channel) ?? []) subscriber.notified(payload);
  }

  private resetAll(): void {
    for (const subscribers of this.channels.values()) for (const subscriber of subscribers) subscriber.reset();
  }
}
