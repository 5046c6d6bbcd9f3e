export { Database } from './database.js';
export { rowsOf, rowsOfJob, textOrNull, type CopyJob, type CopyTarget, type CopyValue } from './bulk-copy.js';
export { eachInTurns, mapInTurns } from './map-in-turns.js';
export { decimalFrom, decimalOrNullFrom, textOrNullFrom, type SqlRow } from './sql-row.js';
export { TypeOrmUnitOfWork, UnitOfWork } from './unit-of-work.js';
export { PersistenceModule } from './persistence.module.js';
export { MIGRATIONS } from './migrations/index.js';
export { DatabaseNotifications, type ChannelSubscriber } from './database-notifications.js';
export { NotifiedCache, type NotificationSource } from './notified-cache.js';
