import { literal, object, oneOfStrings, ref, string, type Schema, type SchemaSet } from '@app/shared/openapi';
import { SERVICE_NAME } from '../health-checks.js';

// The probes' response bodies for the OpenAPI document.

const timestamp = string({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}$',
  description: 'UTC wall-clock time with microseconds and no zone suffix.',
});
const check: Schema = object({ status: oneOfStrings(['healthy', 'unhealthy']), message: string() });

export const healthSchemas: SchemaSet = {
  Health: object({ status: literal('healthy'), timestamp, service: literal(SERVICE_NAME) }),
  HealthCheck: check,
  DetailedHealth: object({
    status: oneOfStrings(['healthy', 'degraded']),
    timestamp,
    service: literal(SERVICE_NAME),
    checks: object({ database: ref('HealthCheck'), environment: ref('HealthCheck'), disk_space: ref('HealthCheck') }),
  }),
  Readiness: object(
    {
      status: oneOfStrings(['ready', 'not ready']),
      timestamp,
      reason: string({ description: 'Not ready only: the kind of trouble (`database unavailable`, `shutting down`, …).' }),
    },
    ['reason'],
  ),
  Liveness: object({ status: literal('alive'), timestamp }),
};
