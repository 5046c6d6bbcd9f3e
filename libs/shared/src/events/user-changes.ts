type Listener = (userId: number) => void;

/**
 * In-process news that something of a user changed, for whoever keeps answers derived from it. Each
 * kind of news is its own subclass (its own provider), announced after the change has committed.
 */
export class UserChanges {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(userId: number): void {
    for (const listener of this.listeners) listener(userId);
  }
}
