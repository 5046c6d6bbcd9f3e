import { DynamicModule, Global, Module } from '@nestjs/common';
import { Database, PERSISTENCE_OPTIONS, type PersistenceOptions } from './database.js';
import { DatabaseNotifications } from './database-notifications.js';
import { TypeOrmUnitOfWork, UnitOfWork } from './unit-of-work.js';
import { MIGRATIONS } from './migrations/index.js';

/**
 * The data source for every context. The composition root hands it the entity classes the
 * contexts export; the migrations are one linear history kept here.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: Pick<PersistenceOptions, 'entities'>): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: PERSISTENCE_OPTIONS, useValue: { entities: options.entities, migrations: MIGRATIONS } },
        Database,
        DatabaseNotifications,
        { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
      ],
      exports: [Database, DatabaseNotifications, UnitOfWork],
    };
  }
}
