// What every context shares: configuration, the domain's errors, HTTP helpers, runtime helpers. The
// OpenAPI builders and decorators are `@app/shared/openapi`, apart: they load Nest's Swagger module,
// which the code an import's thread loads has no use for (docs/imports.md "A thread that loads what it runs").
export { AppConfig, ConfigError, loadConfig, type LogLevel, type NodeEnv, type OidcSettings } from './config/app-config.js';
export { loadDotEnv } from './config/dotenv.js';
export {
  AccessDeniedError,
  AuthenticationRequiredError,
  ConflictError,
  DatabaseUnavailableError,
  DOMAIN_ERROR_CLASSES,
  DomainError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceBusyError,
  TooManyRequestsError,
  unknownAccount,
  ValidationError,
} from './errors/domain.errors.js';
export { isConnectionError } from './errors/connection-errors.js';
export { DATABASE_CONNECTION_FAILED, describeFailure, INTERNAL_ERROR, STATUS_BY_CODE, type Failure } from './http/failures.js';
export { DATA_SOURCE, dataResponse } from './http/data-source.js';
export { dataResponseText, JsonText } from './http/json-text.js';
export { decodeUploadedText, readUploadedFileList, readUploadedFiles, UploadBudget, type FileReceiver, type UploadedFile, type UploadRules } from './http/multipart-upload.js';
export { timestampWithMicroseconds } from './time/timestamps.js';
export { Lane } from './concurrency/lane.js';
export { SingleFlight } from './concurrency/single-flight.js';
export { BatchFeed } from './concurrency/batch-feed.js';
export { collectGarbageAbove, limitHeapGrowth, narrowHeapGrowth } from './runtime/garbage-collection.js';
export { TURN_EVERY_MS, turnIfDue } from './runtime/event-loop-turns.js';
export { errorClasses, fromThreadError, toThreadError, type ThreadError } from './runtime/thread-errors.js';
export { UserChanges } from './events/user-changes.js';
export { SharedModule } from './shared.module.js';
export { CurrentUser, IS_PUBLIC, Public, type AuthenticatedUser } from './http/auth-context.js';
