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
export {
  ApiFailures,
  ApiJson,
  ApiSignedIn,
  arrayOf,
  boolean,
  dataEnvelope,
  ERROR_SCHEMA,
  instant,
  integer,
  isoDate,
  isoMonth,
  literal,
  nullable,
  number,
  object,
  oneOfStrings,
  ref,
  SESSION_COOKIE_SCHEME,
  sharedSchemas,
  string,
  type Schema,
  type SchemaSet,
} from './http/openapi.js';
