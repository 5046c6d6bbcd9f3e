import { Injectable } from '@nestjs/common';

type Listener = (userId: number) => void;

/**
 * In-process news of committed report data, from the ledger to the version sources: the embedded
 * database lives inside this process, so every change to it passes through here; for a server, the
 * news holds this process's copy of the version until the database's own notification arrives.
 * One per application (a provider of the trades module); announced after the import's commit.
 */
@Injectable()
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

