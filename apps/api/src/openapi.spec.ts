import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@app/shared';
import { documentText, OPENAPI_FILE, previewOpenApiDocument, WEB_TYPES_FILE } from './openapi.js';
import { typescriptOf } from './openapi-types.js';

// The OpenAPI document: valid OpenAPI 3.1, committed as the code describes it (and the web app's types
// with it), and holding every route and field name of the contract (../shared/spec/interface.md).

const ROOT = process.cwd();
const SPEC = process.env.SHARED_SPEC_DIR ?? path.resolve(ROOT, '../shared/spec');
const OUT_OF_DATE = 'is out of date with the code: run `npm run openapi` and commit the result';

type Schema = { [keyword: string]: unknown };
let document: OpenAPIObject;

beforeAll(async () => {
  document = await previewOpenApiDocument(loadConfig({}, ROOT));
});

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it(`is committed as ${OPENAPI_FILE}, and the web app's types made from it as ${WEB_TYPES_FILE}`, () => {
    const committed = readFileSync(path.join(ROOT, OPENAPI_FILE), 'utf8');
    if (committed !== documentText(document)) throw new Error(`${OPENAPI_FILE} ${OUT_OF_DATE}`);
    const types = readFileSync(path.join(ROOT, WEB_TYPES_FILE), 'utf8');
    if (types !== typescriptOf(document.components!.schemas as Record<string, Schema>)) throw new Error(`${WEB_TYPES_FILE} ${OUT_OF_DATE}`);
  });

  it('names every schema it points at, and each operation answers failures with the error body', () => {
    const schemas = document.components!.schemas!;
    const missing = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]).filter((name) => !(name in schemas));
    expect(missing).toEqual([]);
    for (const [route, method, operation] of operations(document)) {
      expect([route, method, JSON.stringify(operation.responses.default?.content)]).toEqual([route, method, JSON.stringify({ 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } })]);
    }
  });

  it('asks for the session cookie on every route except health, sign-in and the trading calendar metrics', () => {
    const isPublic = (route: string) => /^\/(health|auth\/login|auth\/callback|login|logout)\b/.test(route) || route === '/api/trading-calendar/metrics';
    for (const [route, method, operation] of operations(document)) {
      const security = operation.security ?? [];
      expect({ route, method, public: security.length === 0 }).toEqual({ route, method, public: isPublic(route) });
      if (!isPublic(route)) {
        expect(security).toEqual([{ session: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
    expect(document.components!.securitySchemes!.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'session' });
  });
});

describe("the contract's routes (../shared/spec/interface.md) in the document", () => {
  const contract = contractRoutes(readFileSync(path.join(SPEC, 'interface.md'), 'utf8'));

  it('reads the endpoint tables of the contract', () => {
    expect(contract.length).toBeGreaterThanOrEqual(35);
    expect(contract.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining(['GET /api/months', 'POST /api/upload-csv', 'GET /api/upload-history', 'DELETE /api/portfolio/snapshot/{}', 'GET /health/live']),
    );
  });

  it('has every path and method, and every field name the contract gives their answers', () => {
    const problems: string[] = [];
    for (const { method, path: route, fields } of contract) {
      const operation = findOperation(document, method, route);
      if (operation === undefined) {
        problems.push(`${method} ${route}: not in the document`);
        continue;
      }
      const described = propertyNames(document, operation.responses);
      for (const field of fields) if (!described.has(field)) problems.push(`${method} ${route}: no field '${field}' in its responses`);
    }
    expect(problems).toEqual([]);
  });
});

interface ContractRoute {
  method: string;
  path: string;
  fields: string[];
}

/** The rows `| GET | \`/api/…\` | … |` of the endpoint tables and the bold `**POST \`/api/…\`**` lines. */
function contractRoutes(markdown: string): ContractRoute[] {
  const endpoints = markdown.slice(markdown.indexOf('## Endpoints'), markdown.indexOf('## Authentication'));
  const routes: ContractRoute[] = [];
  for (const line of endpoints.split('\n')) {
    const row = /^\| (GET|POST|PUT|DELETE) \| (.+?) \|(.*)$/.exec(line);
    const bold = /^\*\*(GET|POST|PUT|DELETE) (`[^`]+`)\*\*(.*)$/.exec(line);
    const match = row ?? bold;
    if (match === null) continue;
    const [, method, paths, rest] = match;
    for (const [, route] of paths.matchAll(/`([^`]+)`/g)) routes.push({ method, path: templateOf(route), fields: fieldNames(rest) });
  }
  return routes;
}

/** `/api/symbols/<symbol>` and `/api/x/{id}` → `/api/symbols/{}`: parameter names may differ. */
function templateOf(route: string): string {
  return route.replace(/<[^>]+>|\{[^}]+\}/g, '{}');
}

/** The keys of the `{a, b:…, c}` shapes in a table cell: names after `{` or `,` followed by `:`, `,` or `}`. */
function fieldNames(text: string): string[] {
  return [...new Set([...text.matchAll(/[{,]\s*([a-z_]+)(?=\s*[:,}])/g)].map((match) => match[1]))];
}

type Operation = { responses: Record<string, Schema & { content?: Record<string, { schema: Schema }> }>; security?: Record<string, string[]>[] };

function operations(doc: OpenAPIObject): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).filter((method) => item[method] !== undefined).map((method) => [route, method, item[method] as unknown as Operation] as [string, string, Operation]),
  );
}

function findOperation(doc: OpenAPIObject, method: string, template: string): Operation | undefined {
  const route = Object.keys(doc.paths).find((candidate) => templateOf(candidate) === template);
  return route === undefined ? undefined : (doc.paths[route] as unknown as Record<string, Operation>)[method.toLowerCase()];
}

/** Every property name anywhere in the operation's response bodies, following `$ref`s. */
function propertyNames(doc: OpenAPIObject, responses: Operation['responses']): Set<string> {
  const names = new Set<string>();
  const seen = new Set<Schema>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value as Schema)) return;
    seen.add(value as Schema);
    const schema = value as Schema;
    if (typeof schema.$ref === 'string') visit(doc.components!.schemas![schema.$ref.split('/').pop()!]);
    if (schema.properties !== undefined) for (const name of Object.keys(schema.properties as Schema)) names.add(name);
    for (const child of Object.values(schema)) visit(child);
  };
  visit(responses);
  return names;
}
