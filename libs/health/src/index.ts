export { HealthModule } from './health.module.js';
export { SERVICE_NAME } from './health-checks.js';
export { healthSchemas } from './http/health.openapi.js';
