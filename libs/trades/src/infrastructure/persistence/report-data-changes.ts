type Listener = (userId: number) => void;

/**
 * In-process news of rebuilt report data, for the embedded database's version source. The embedded
 * database lives inside this process, so every change to it passes through here.
 */
export class ReportDataChanges {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(userId: number): void {
    for (const listener of this.listeners) listener(userId);
  }
}

export const REPORT_DATA_CHANGES = new ReportDataChanges();
