import { Injectable } from '@nestjs/common';
import { Database } from './database.js';

/**
 * Runs a use case's writes as one database transaction: all of them land, or none does.
 * Repositories called inside `run` join the transaction without being handed it.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `announce` after the current unit of work commits (never if it rolls back); at once outside one. */
  abstract afterCommit(announce: () => void): void;
}

@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly database: Database) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.database.inTransaction(work);
  }

  afterCommit(announce: () => void): void {
    this.database.afterCommit(announce);
  }
}
