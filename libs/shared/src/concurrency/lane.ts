/**
 * Runs work with at most `width` pieces under way at once; the rest wait their turn, in the order
 * they came (PDF renders, background price fetches).
 */
export class Lane {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly width: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.width) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}
