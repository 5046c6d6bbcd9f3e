import { AsyncResource } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import { fromThreadError, toThreadError } from '@app/shared';
import type { CopyPiece } from './bulk-copy.js';
import type { Database } from './database.js';
import type { HostMessage, ThreadNotice, ThreadPort, ThreadRequest } from './thread-database.js';

/** What a thread may ask of its host besides the database: calls answered, notices not. */
export interface ThreadHandlers {
  calls?: Record<string, (...args: never[]) => Promise<unknown>>;
  tells?: Record<string, (...args: never[]) => void>;
}

export interface ThreadDatabaseHost {
  /**
   * The thread is gone (it ended, or failed): its units of work still open are rolled back, their
   * copies failed with `error`. Resolves once they have ended.
   */
  close(error: Error): Promise<void>;
}

/** Runs a function in the context of a unit of work (where `Database.manager` is its transaction's). */
type Within = <T>(work: () => T) => T;

const ROLLED_BACK = new Error('the thread rolled its unit of work back');

/**
 * Serves a `ThreadDatabase` on another thread through `port`: its statements, units of work and
 * copies run here, on `database`, each in the unit of work it was asked in; and so do `handlers`'
 * calls (an import's new account is created in the import's transaction).
 */
export function serveThreadDatabase(port: ThreadPort, database: Database, handlers: ThreadHandlers = {}): ThreadDatabaseHost {
  const logger = new Logger('ThreadDatabase');
  const transactions = new Map<number, { within: Within; finish: (commit: boolean) => void; done: Promise<void> }>();
  const copies = new Map<number, PieceQueue[]>();
  let lastTx = 0;
  let closed: Error | undefined;

  const post = (message: HostMessage, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);
  /** A piece's buffer back to the thread once its bytes are written (`CopyPiece.release`): no longer this heap's memory. */
  const written = (bytes: ArrayBuffer) => {
    if (closed === undefined && bytes.byteLength > 0) post({ kind: 'written', bytes }, [bytes]);
  };
  const within = <T>(tx: number | null, work: () => Promise<T>): Promise<T> => {
    if (tx === null) return work();
    const transaction = transactions.get(tx);
    return transaction === undefined ? Promise.reject(new Error('the unit of work has ended')) : transaction.within(work);
  };

  const begin = async (): Promise<number> => {
    if (closed !== undefined) throw closed;
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    let entered!: (within: Within) => void;
    const inside = new Promise<Within>((resolve) => (entered = resolve));
    const done = database.inTransaction(async () => {
      entered(AsyncResource.bind(<T>(work: () => T) => work()));
      if (!(await decided)) throw ROLLED_BACK;
    });
    done.catch(() => undefined); // met at `end`
    const withinTransaction = await Promise.race([inside, done.then(() => inside)]);
    if (closed !== undefined) {
      // The thread ended while this unit of work began: nothing will end it but this.
      finish(false);
      await done.catch(() => undefined);
      throw closed;
    }
    const tx = (lastTx += 1);
    transactions.set(tx, { within: withinTransaction, finish, done });
    return tx;
  };

  const end = async (tx: number, commit: boolean): Promise<void> => {
    const transaction = transactions.get(tx);
    if (transaction === undefined) throw new Error('the unit of work has ended');
    transactions.delete(tx);
    transaction.finish(commit);
    try {
      await transaction.done;
    } catch (error) {
      if (error !== ROLLED_BACK) throw error;
    }
  };

  const copy = ({ id, tx, targets }: ThreadRequest & { kind: 'copy' }): Promise<number[]> => {
    const queues = targets.map(() => new PieceQueue(() => post({ kind: 'taken', copy: id })));
    if (closed !== undefined) for (const queue of queues) queue.fail(closed);
    copies.set(id, queues);
    const done = within(tx, () => database.copyRows(...targets.map((target, job) => ({ target, pieces: queues[job] }))));
    const forget = () => copies.delete(id);
    done.then(forget, forget);
    return done;
  };

  const answer = async (request: ThreadRequest): Promise<unknown> => {
    switch (request.kind) {
      case 'query':
        return within(request.tx, () => database.manager.query(request.sql, request.params));
      case 'begin':
        return begin();
      case 'end':
        return end(request.tx, request.commit);
      case 'copy':
        return copy(request);
      case 'call': {
        const call = handlers.calls?.[request.name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
        if (call === undefined) throw new Error(`no call ${request.name}`);
        return within(request.tx, () => call(...request.args));
      }
    }
  };

  const notice = (message: ThreadNotice): void => {
    switch (message.kind) {
      case 'piece':
        copies.get(message.copy)?.[message.job]?.push({ bytes: Buffer.from(message.bytes, 0, message.length), rows: message.rows, release: () => written(message.bytes) });
        return;
      case 'pieces-end':
        copies.get(message.copy)?.[message.job]?.end();
        return;
      case 'pieces-failed':
        copies.get(message.copy)?.[message.job]?.fail(fromThreadError(message.error, new Map()));
        return;
      case 'statistics':
        within(message.tx, async () => database.refreshStatisticsAfterCommit(message.tables, message.rows)).catch((error: unknown) =>
          logger.warn(`could not note the statistics to refresh: ${String(error)}`),
        );
        return;
      case 'tell':
        (handlers.tells?.[message.name] as ((...args: unknown[]) => void) | undefined)?.(...message.args);
        return;
    }
  };

  port.on('message', (message: ThreadRequest | ThreadNotice | { kind: string }) => {
    if ('id' in message) {
      const request = message as ThreadRequest;
      answer(request).then(
        (value) => post({ kind: 'reply', id: request.id, ok: true, value }),
        (error: unknown) => post({ kind: 'reply', id: request.id, ok: false, error: toThreadError(error) }),
      );
    } else if (NOTICES.has(message.kind)) {
      notice(message as ThreadNotice);
    }
  });

  return {
    async close(error: Error): Promise<void> {
      closed = error;
      for (const queues of copies.values()) for (const queue of queues) queue.fail(error);
      const open = [...transactions.values()];
      transactions.clear();
      for (const transaction of open) transaction.finish(false);
      await Promise.allSettled(open.map((transaction) => transaction.done));
    },
  };
}

const NOTICES = new Set<string>(['piece', 'pieces-end', 'pieces-failed', 'statistics', 'tell']);

/** The pieces of one job of a copy as they arrive; each taken is told back (the thread's flow control). */
class PieceQueue implements AsyncIterable<CopyPiece> {
  private readonly pieces: CopyPiece[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly taken: () => void) {}

  push(piece: CopyPiece): void {
    this.pieces.push(piece);
    this.wakeUp();
  }

  end(): void {
    this.ended = true;
    this.wakeUp();
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.wakeUp();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<CopyPiece> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure.error;
      const piece = this.pieces.shift();
      if (piece !== undefined) {
        this.taken();
        yield piece;
      } else if (this.ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
