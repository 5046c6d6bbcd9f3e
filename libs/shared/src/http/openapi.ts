import { applyDecorators } from '@nestjs/common';
import { ApiCookieAuth, ApiResponse } from '@nestjs/swagger';
import { DATA_SOURCE } from './data-source.js';

// The OpenAPI description of the API (OpenAPI 3.1, whose schemas are JSON Schema 2020-12), imported as
// `@app/shared/openapi`. Each context describes its response bodies with these builders in its
// http/*.openapi.ts and names them in `components.schemas`; its controllers point at them with the
// decorators below. The end-to-end suites validate every response against the document, so a body that
// differs from its schema fails a test.

/** A JSON Schema (2020-12) as OpenAPI 3.1 holds it. */
export type Schema = { [keyword: string]: unknown };

/** The response bodies a context adds to `components.schemas`, by name. */
export type SchemaSet = Readonly<Record<string, Schema>>;

export const SESSION_COOKIE_SCHEME = 'session';
export const ERROR_SCHEMA = 'ErrorResponse';

export const string = (more: Schema = {}): Schema => ({ type: 'string', ...more });
export const number = (more: Schema = {}): Schema => ({ type: 'number', ...more });
export const integer = (more: Schema = {}): Schema => ({ type: 'integer', ...more });
export const boolean = (more: Schema = {}): Schema => ({ type: 'boolean', ...more });
export const literal = (value: string | number | boolean): Schema => ({ const: value });
export const oneOfStrings = (values: readonly string[], more: Schema = {}): Schema => ({ type: 'string', enum: [...values], ...more });
export const isoDate = (more: Schema = {}): Schema => ({ type: 'string', format: 'date', ...more });
export const isoMonth = (more: Schema = {}): Schema => ({ type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$', ...more });
/** An instant as `Date.toISOString()` writes it (UTC, `Z`). */
export const instant = (more: Schema = {}): Schema => ({ type: 'string', format: 'date-time', ...more });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: Schema, more: Schema = {}): Schema => ({ type: 'array', items, ...more });

/** `schema` or null. */
export function nullable(schema: Schema): Schema {
  if (Array.isArray(schema.enum)) return { ...schema, type: [schema.type, 'null'], enum: [...(schema.enum as unknown[]), null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** An object with exactly these properties; all required except those named in `optional`. */
export function object(properties: Record<string, Schema>, optional: readonly string[] = [], more: Schema = {}): Schema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return { type: 'object', ...more, properties, required, additionalProperties: false };
}

/** A data response (`dataResponse`): `success: true`, the body's properties, then `data_source`. */
export function dataEnvelope(properties: Record<string, Schema>, optional: readonly string[] = [], more: Schema = {}): Schema {
  return object({ success: literal(true), ...properties, data_source: literal(DATA_SOURCE) }, optional, more);
}

/** The body every failure answers with (apps/api's exception filter). */
export const sharedSchemas: SchemaSet = {
  [ERROR_SCHEMA]: object(
    {
      success: literal(false),
      error: string({ description: 'What went wrong, for a person to read.' }),
      redirect_to_login: literal(true),
    },
    ['redirect_to_login'],
    { description: 'A refused or failed request. 401 bodies add `redirect_to_login: true`.' },
  ),
};

const FAILURE_DESCRIPTIONS: Record<number, string> = {
  400: 'A parameter or body the request cannot be served with; `error` names it.',
  401: 'Not signed in, or the session has ended.',
  403: 'Signed in with an address that is not on the allow-list.',
  404: 'Nothing of the signed-in user by that name or id.',
  409: 'Conflicts with what is already stored.',
  413: 'The body or a file is larger than allowed.',
  429: 'Too many requests; try again shortly.',
  500: 'The database could not be reached (`Database connection failed`) or an internal error.',
  502: 'An upstream service (identity provider, market data) failed.',
  503: 'The service is busy or not ready.',
};

/** A JSON response of `status` whose body is the named schema. */
export function ApiJson(name: string, description: string, status = 200): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, content: { 'application/json': { schema: ref(name) } } });
}

/** The failures an operation can answer with (each the error body), besides those every operation can. */
export function ApiFailures(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: FAILURE_DESCRIPTIONS[status] ?? 'Refused.', content: { 'application/json': { schema: ref(ERROR_SCHEMA) } } }),
    ),
  );
}

/**
 * The operations of a controller need a signed-in session (the `session` cookie): they answer 401
 * without one, 403 off the allow-list, and 500 when the database cannot be reached.
 */
export function ApiSignedIn(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiCookieAuth(SESSION_COOKIE_SCHEME), ApiFailures(401, 403, 500));
}
