/**
 * Concurrent callers with the same key share one piece of work while it is under way (a report
 * computed on a cache miss, a session's activity write); the next call after it settles starts anew.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    let flight = this.flights.get(key);
    if (flight === undefined) {
      flight = work().finally(() => this.flights.delete(key));
      this.flights.set(key, flight);
    }
    return flight;
  }
}
