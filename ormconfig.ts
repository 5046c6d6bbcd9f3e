import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '@app/persistence';
import { ENTITIES } from './apps/api/src/entities.js';

/**
 * The data source for the TypeORM CLI against a PostgreSQL server, e.g.
 *   DATABASE_URL=postgres://… npx typeorm migration:show -d dist/ormconfig.js
 * The service itself runs the same migrations at start-up (libs/persistence).
 */
export default new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTableName: 'migrations',
  synchronize: false,
});
