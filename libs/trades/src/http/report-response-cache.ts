import { brotliCompress, constants as zlib, gzipSync } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { JsonText, SingleFlight } from '@app/shared';
import { ReportVersions } from '../application/report-versions.port.js';

/** Bytes kept at most: a few hundred months, calendars and summaries of several users. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
/**
 * The largest body kept. A month of 34,000 trades (a million-row account's busiest) is 8 MB of JSON:
 * not kept (the limit was 4 MB), every request read, serialised and gzipped it again, and 64 readers
 * of it saw p99 ~0.5 s with the service using 1.6 cores.
 */
export const MAX_ENTRY_BYTES = MAX_CACHED_BYTES / 4;
/** Brotli's quality for report bodies (see `CachedReport.brotli`). */
const BROTLI_QUALITY = 9;
/** Smaller bodies gain nothing from compression. */
const MIN_GZIP_BYTES = 1024;
/**
 * Bodies above this are gzipped at level 1 instead of 6. The gzip form is made while the first
 * answer waits, and is sent only until the Brotli form is ready (to clients that take Brotli, every
 * browser): for the busiest month of a million-row account (9.6 MB of JSON) level 6 takes 70 ms for
 * 764 KB, level 1 23 ms for 967 KB.
 */
const FAST_GZIP_BYTES = 1024 * 1024;

/** One serialised report response: the JSON bytes, and their compressed forms made on first demand. */
export class CachedReport {
  private compressed: Buffer | undefined;
  private brotliForm: Buffer | undefined;
  private brotliStarted = false;

  constructor(
    readonly version: number,
    readonly json: Buffer,
  ) {}

  /** A response body serialised as JSON (UTF-8; a JsonText's as it is), under the report version it was computed for. */
  static of(version: number, body: unknown): CachedReport {
    return new CachedReport(version, Buffer.from(body instanceof JsonText ? body.text : JSON.stringify(body), 'utf8'));
  }

  get compressible(): boolean {
    return this.json.length >= MIN_GZIP_BYTES;
  }

  gzipped(): Buffer {
    this.compressed ??= gzipSync(this.json, { level: this.json.length > FAST_GZIP_BYTES ? 1 : 6 });
    return this.compressed;
  }

  /**
   * The Brotli form once it is ready, else undefined (then gzip is sent). It is made once, on the
   * thread pool, at quality 9: for a 1 MB month (3,400 trades) 49 KB in ~25 ms, against gzip's 82 KB.
   * The highest quality (11) gains another 8% but takes ~1.7 s of a core per report, which a
   * two-core machine takes from the requests and the database answering meanwhile.
   */
  brotli(): Buffer | undefined {
    if (!this.brotliStarted) {
      this.brotliStarted = true;
      brotliCompress(
        this.json,
        { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: this.json.length } },
        (error, result) => {
          // Without it, gzip keeps being sent.
          if (error === null) this.brotliForm = result;
        },
      );
    }
    return this.brotliForm;
  }

  get bytes(): number {
    return this.json.length + (this.compressed?.length ?? 0) + (this.brotliForm?.length ?? 0);
  }
}

/**
 * Serialised report responses per user and request address, valid while the user's report version
 * (read before the data) is unchanged: a new import raises it, and the next request recomputes.
 * Least recently used bodies go first; concurrent misses for one body share a single computation.
 */
@Injectable()
export class ReportResponseCache {
  private readonly entries = new Map<string, CachedReport>();
  private readonly computing = new SingleFlight<CachedReport>();

  constructor(private readonly versions: ReportVersions) {}

  async response(userId: number, address: string, compute: () => Promise<unknown>): Promise<CachedReport> {
    const version = await this.versions.current(userId);
    const key = `${userId} ${address}`;
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.version === version) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    return this.computing.run(`${version} ${key}`, async () => {
      const report = CachedReport.of(version, await compute());
      this.store(key, report);
      return report;
    });
  }

  /** The JSON text of a response (for tests and diagnostics). */
  async body(userId: number, address: string, compute: () => Promise<unknown>): Promise<string> {
    return (await this.response(userId, address, compute)).json.toString('utf8');
  }

  /** How many bodies are kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held by the kept bodies (JSON and gzip forms). */
  get bytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.bytes;
    return total;
  }

  private store(key: string, report: CachedReport): void {
    const current = this.entries.get(key);
    if (current !== undefined && current.version > report.version) return;
    this.entries.delete(key);
    if (report.json.length > MAX_ENTRY_BYTES) return;
    this.entries.set(key, report);
    this.evict();
  }

  private evict(): void {
    let total = this.bytes;
    for (const [key, entry] of this.entries) {
      if (total <= MAX_CACHED_BYTES) break;
      this.entries.delete(key);
      total -= entry.bytes;
    }
  }
}
