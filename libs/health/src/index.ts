export { HealthModule } from './health.module.js';
export { SERVICE_NAME } from './health-checks.js';
