/**
 * Items handed from one piece of work to another as they are made: the maker `add`s batches of them in
 * order and then `end`s (or `fail`s), and the taker goes through the batches with `for await`, each as
 * it comes, waiting while none is there. The trades of an import go so from its matching to the
 * database's `COPY` while the matching goes on. One taker; a batch is the maker's array, not a copy.
 */
export class BatchFeed<T> implements AsyncIterable<readonly T[]> {
  private readonly batches: (readonly T[])[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  add(batch: readonly T[]): void {
    if (this.ended || this.failure !== undefined) throw new Error('nothing is added to a feed that ended');
    if (batch.length === 0) return;
    this.batches.push(batch);
    this.woken();
  }

  /** No batch comes after the ones added. */
  end(): void {
    this.ended = true;
    this.woken();
  }

  /** The taker gets `error` once it has taken the batches added before. */
  fail(error: unknown): void {
    this.failure = { error };
    this.woken();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<readonly T[]> {
    for (;;) {
      const batch = this.batches.shift();
      if (batch !== undefined) {
        yield batch;
      } else if (this.failure !== undefined) {
        throw this.failure.error;
      } else if (this.ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }

  private woken(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
