import { Readable, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { QueryRunner } from 'typeorm';
import { turnIfDue } from '@app/shared';
import { copyStatement, piecesOfJob, type CopyJob, type CopyPiece, type CopyTextJob } from './bulk-copy.js';
import type { EmbeddedPostgres, SpooledCopy } from './embedded-postgres.js';

/**
 * Writes rows with `COPY … FROM`, the fastest way into PostgreSQL, in the transaction of the given
 * query runner, one job after the other; resolves with how many rows each job wrote. One per kind of
 * database: `Database` picks it and keeps track of what it has started.
 */
export interface BulkWriter {
  write(queryRunner: QueryRunner, jobs: readonly (CopyJob | CopyTextJob)[]): Promise<number[]>;
}

/** Rows per COPY statement on the embedded database (at least; whole pieces), where each statement has a cost of its own. */
const EMBEDDED_COPY_ROWS = 10_000;

/**
 * A server: the rows stream over the transaction's own connection, with a turn of the event loop
 * every few milliseconds of building their text (a stream reading a plain generator builds chunks
 * until its buffer is full: 100,000 rows' text in blocks of 100-200 ms, during which no other request
 * was answered).
 */
export class StreamingBulkWriter implements BulkWriter {
  async write(queryRunner: QueryRunner, jobs: readonly (CopyJob | CopyTextJob)[]): Promise<number[]> {
    const client = (await queryRunner.connect()) as PoolClient;
    const counts: number[] = [];
    // Jobs whose rows are worked out when asked for (the report rollups) start on them once the first
    // job's last piece is sent: the server is then still taking that job in (its indexes are most of
    // the work, hundreds of milliseconds for a large import), and this side adds up meanwhile instead
    // of each waiting for the other. Rows given as an iterable are made only as they are sent anyway.
    const piecesAt = new Map<number, Promise<AsyncIterable<CopyPiece>>>();
    const piecesOfAt = (index: number) => {
      let pieces = piecesAt.get(index);
      if (pieces === undefined) {
        pieces = piecesOfJob(jobs[index], turnIfDue);
        pieces.catch(() => undefined); // met when its job comes; an earlier job's failure comes first
        piecesAt.set(index, pieces);
      }
      return pieces;
    };
    const startTheRest = () => jobs.forEach((_, index) => void piecesOfAt(index));
    for (const [index, job] of jobs.entries()) {
      const pieces = await piecesOfAt(index);
      const stream = client.query(copyFromStdin(copyStatement(job.target, 'STDIN')));
      const handed: CopyPiece[] = [];
      await pipeline(Readable.from(bytesOf(pieces, handed, startTheRest, () => writtenOut(stream)), { highWaterMark: 1 }), stream);
      // The server has taken the whole COPY in: every piece's bytes are written.
      releaseAll(handed);
      counts.push(stream.rowCount);
    }
    return counts;
  }
}

/**
 * The embedded database: the rows go straight to the engine (not through its socket), which is one
 * session, the one that holds the caller's transaction. Each statement's text is spooled a piece at a
 * time and handed over once it holds `EMBEDDED_COPY_ROWS` rows; the engine runs them in order, in its
 * own process, while the next is being built. The event loop gets a turn after each statement and
 * while one is built, so other requests are answered while a large write is built.
 */
export class EngineBulkWriter implements BulkWriter {
  constructor(private readonly engine: EmbeddedPostgres) {}

  async write(_queryRunner: QueryRunner, jobs: readonly (CopyJob | CopyTextJob)[]): Promise<number[]> {
    const handedOver: Promise<number>[][] = [];
    let open: SpooledCopy | undefined;
    const handOver = (chunks: Promise<number>[], copy: SpooledCopy) => {
      const copied = copy.end();
      copied.catch(() => undefined); // its failure is judged with the others below, not left unhandled meanwhile
      chunks.push(copied);
    };
    try {
      for (const job of jobs) {
        const { target } = job;
        const chunks: Promise<number>[] = [];
        handedOver.push(chunks);
        let spooled = 0;
        for await (const piece of await piecesOfJob(job, turnIfDue)) {
          open ??= this.engine.spooledCopy(target);
          open.write(piece.bytes);
          piece.release?.(); // written to the spool file at once
          spooled += piece.rows;
          if (spooled >= EMBEDDED_COPY_ROWS) {
            handOver(chunks, open);
            open = undefined;
            spooled = 0;
            await nextTurn();
          }
        }
        if (open !== undefined) handOver(chunks, open);
        open = undefined;
      }
    } catch (error) {
      open?.discard();
      await Promise.allSettled(handedOver.flat()); // a row that could not be built: let the rest end first
      throw error;
    }
    return Promise.all(handedOver.map(async (chunks) => (await Promise.all(chunks)).reduce((sum, count) => sum + count, 0)));
  }
}

/**
 * The pieces' bytes alone (what a server's COPY stream takes); `afterLast` once the last one has been
 * taken. The pieces to release once written (`CopyPiece.release`) are kept in `handed` until
 * `writtenOut` says every byte handed on so far is written, or the caller knows it is. A piece asked
 * for again finds the one before written into the COPY stream (`Readable.from` asks for the next piece
 * only once its buffer of one is empty).
 */
async function* bytesOf(pieces: AsyncIterable<CopyPiece>, handed: CopyPiece[], afterLast: () => void, writtenOut: () => boolean): AsyncGenerator<Buffer> {
  for await (const piece of pieces) {
    if (handed.length > 0 && writtenOut()) releaseAll(handed);
    if (piece.release !== undefined) handed.push(piece);
    yield piece.bytes;
  }
  afterLast();
}

/** Releases the pieces (`CopyPiece.release`) and forgets them. */
function releaseAll(pieces: CopyPiece[]): void {
  for (const piece of pieces) piece.release?.();
  pieces.length = 0;
}

/**
 * Whether every byte written into a server's COPY stream so far has been written to its socket (none
 * waits in the stream, nor in the socket for the operating system to take it): the bytes handed on
 * are then no longer read. pg-copy-streams writes to the socket of the connection it runs on, which it
 * holds from the moment the statement is sent until it ends.
 */
function writtenOut(copy: Writable & { connection?: { stream?: Writable } | null }): boolean {
  const socket = copy.connection?.stream;
  return socket !== undefined && copy.writableLength === 0 && socket.writableLength === 0;
}
