export * from './sql.js';
export { PersistenceModule } from './persistence.module.js';
export { MIGRATIONS } from './migrations/index.js';
export { DatabaseNotifications, type ChannelSubscriber } from './database-notifications.js';
export { NotifiedCache, type NotificationSource } from './notified-cache.js';
export { serveThreadDatabase, type ThreadDatabaseHost, type ThreadHandlers } from './thread-database.host.js';
