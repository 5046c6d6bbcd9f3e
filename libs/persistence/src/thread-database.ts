import { AsyncLocalStorage } from 'node:async_hooks';
import { fromThreadError, toThreadError, turnIfDue, type ThreadError } from '@app/shared';
import { givePieceBufferBack, piecesOfJob, type CopyJob, type CopyTarget, type CopyTextJob } from './bulk-copy.js';

/**
 * What a thread asks of the thread that holds the database (`serveThreadDatabase`), each answered by
 * a reply of its id; `tx` is the unit of work the thread is in (null: none).
 */
export type ThreadRequest =
  | { kind: 'query'; id: number; tx: number | null; sql: string; params: unknown[] | undefined }
  | { kind: 'begin'; id: number; tx: null }
  | { kind: 'end'; id: number; tx: number; commit: boolean }
  /** A COPY of the pieces that follow (`piece`, `pieces-end`, `pieces-failed` of the same `copy`, its id). */
  | { kind: 'copy'; id: number; tx: number | null; targets: CopyTarget[] }
  /** One of the calls the host was given (`ThreadHandlers.calls`). */
  | { kind: 'call'; id: number; tx: number | null; name: string; args: unknown[] };

/** What a thread tells the host without waiting for an answer. */
export type ThreadNotice =
  | { kind: 'piece'; copy: number; job: number; bytes: ArrayBuffer; length: number; rows: number }
  | { kind: 'pieces-end'; copy: number; job: number }
  | { kind: 'pieces-failed'; copy: number; job: number; error: ThreadError }
  | { kind: 'statistics'; tx: number | null; tables: Record<string, readonly string[]>; rows: number }
  | { kind: 'tell'; name: string; args: unknown[] };

/** What the host sends back: replies, each piece of a copy its writer has taken, and the pieces' buffers once written. */
export type HostMessage =
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: ThreadError }
  | { kind: 'taken'; copy: number }
  | { kind: 'written'; bytes: ArrayBuffer };

/** One end of the channel between the two threads: a worker's port, or the Worker seen from its parent. */
export interface ThreadPort {
  postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'message', listener: (message: any) => void): unknown;
}

/** The pieces of COPY text (32 KB each) a copy may have sent that its writer has not taken yet. */
const PIECES_IN_FLIGHT = 8;

type ErrorClasses = ReadonlyMap<string, abstract new (...args: never[]) => Error>;

/**
 * The database as the adapters use it (`manager.query`, `inTransaction`, `afterCommit`, `copyRows`,
 * `refreshStatisticsAfterCommit`), on a thread that does not hold it: every statement runs on the
 * thread that does, in the unit of work this side is in, through `port`. COPY text is made here and
 * sent as bytes (transferred, not copied), at most PIECES_IN_FLIGHT pieces ahead of the writer. An
 * import runs on such a thread so that its CPU work and its heap's collections leave the main thread
 * free to answer (docs/imports.md).
 */
export class ThreadDatabase {
  private readonly scope = new AsyncLocalStorage<{ tx: number; committed: (() => void)[] }>();
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly flows = new Map<number, { inFlight: number; stopped: boolean; wake: (() => void) | undefined }>();
  private lastId = 0;

  constructor(
    private readonly port: ThreadPort,
    private readonly classes: ErrorClasses,
  ) {
    port.on('message', (message: HostMessage) => this.receive(message));
  }

  readonly manager = {
    query: <T = unknown>(sql: string, params?: unknown[]): Promise<T> => this.request({ kind: 'query', sql, params }) as Promise<T>,
  };

  async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.scope.getStore() !== undefined) return work();
    const tx = (await this.request({ kind: 'begin', tx: null })) as number;
    const committed: (() => void)[] = [];
    let value: T;
    try {
      value = await this.scope.run({ tx, committed }, work);
    } catch (error) {
      await this.request({ kind: 'end', tx, commit: false }).catch(() => undefined); // the work's error is the one to tell
      throw error;
    }
    await this.request({ kind: 'end', tx, commit: true });
    for (const announce of committed) announce();
    return value;
  }

  afterCommit(announce: () => void): void {
    const scope = this.scope.getStore();
    if (scope === undefined) announce();
    else scope.committed.push(announce);
  }

  refreshStatisticsAfterCommit(tables: Readonly<Record<string, readonly string[]>>, rows: number): void {
    this.notify({ kind: 'statistics', tx: this.scope.getStore()?.tx ?? null, tables: { ...tables }, rows });
  }

  /** As `Database.copyRows`: resolves with the rows each job wrote once the host's writer has written them. */
  copyRows(...jobs: (CopyJob | CopyTextJob)[]): Promise<number[]> {
    const id = (this.lastId += 1);
    const flow = { inFlight: 0, stopped: false, wake: undefined as (() => void) | undefined };
    this.flows.set(id, flow);
    const done = this.request({ kind: 'copy', targets: jobs.map((job) => job.target) }, id) as Promise<number[]>;
    const stop = () => {
      flow.stopped = true;
      flow.wake?.();
      this.flows.delete(id);
    };
    done.then(stop, stop);
    void this.sendPieces(id, jobs, flow);
    return done;
  }

  /** One of the host's own calls (`ThreadHandlers.calls`), in the current unit of work. */
  call<T>(name: string, ...args: unknown[]): Promise<T> {
    return this.request({ kind: 'call', name, args }) as Promise<T>;
  }

  /** One of the host's notices (`ThreadHandlers.tells`): nothing is answered. */
  tell(name: string, ...args: unknown[]): void {
    this.notify({ kind: 'tell', name, args });
  }

  private async sendPieces(copy: number, jobs: readonly (CopyJob | CopyTextJob)[], flow: { inFlight: number; stopped: boolean; wake: (() => void) | undefined }): Promise<void> {
    for (const [job, each] of jobs.entries()) {
      try {
        for await (const piece of await piecesOfJob(each, turnIfDue)) {
          while (flow.inFlight >= PIECES_IN_FLIGHT && !flow.stopped) await new Promise<void>((resolve) => (flow.wake = resolve));
          if (flow.stopped) return;
          flow.inFlight += 1;
          // A piece's buffer is its own (32 KB, never from Buffer's shared pool), so it is handed over, not copied.
          const bytes = piece.bytes.byteOffset === 0 && piece.bytes.buffer.byteLength > Buffer.poolSize ? piece.bytes : Buffer.from(piece.bytes);
          const buffer = bytes.buffer as ArrayBuffer;
          this.notify({ kind: 'piece', copy, job, bytes: buffer, length: bytes.length, rows: piece.rows }, [buffer]);
        }
      } catch (error) {
        if (!flow.stopped) this.notify({ kind: 'pieces-failed', copy, job, error: toThreadError(error) });
        return;
      }
      if (flow.stopped) return;
      this.notify({ kind: 'pieces-end', copy, job });
    }
  }

  private request(message: DistributiveOmit<ThreadRequest, 'id' | 'tx'> & { tx?: number | null }, id = (this.lastId += 1)): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ tx: this.scope.getStore()?.tx ?? null, ...message, id });
    });
  }

  private notify(message: ThreadNotice, transfer: ArrayBuffer[] = []): void {
    this.port.postMessage(message, transfer);
  }

  private receive(message: HostMessage): void {
    if (message.kind === 'written') {
      givePieceBufferBack(message.bytes);
      return;
    }
    if (message.kind === 'taken') {
      const flow = this.flows.get(message.copy);
      if (flow === undefined) return;
      flow.inFlight -= 1;
      flow.wake?.();
      flow.wake = undefined;
      return;
    }
    if (message.kind !== 'reply') return;
    const waiting = this.waiting.get(message.id);
    if (waiting === undefined) return;
    this.waiting.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(fromThreadError(message.error, this.classes));
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
