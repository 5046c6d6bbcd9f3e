import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// Every answer a test receives from the service is checked against the committed OpenAPI document
// (docs/openapi.json): `fetch` is wrapped for every suite (jest's setupFilesAfterEnv), and a response to
// a documented path and method must have a documented status (or the `default` one), a documented media
// type, and a body valid against its schema. The check reads a copy of the body on the side, so streams
// keep their timing; each test ends by waiting for its checks, and fails with what did not match.
// Answers of other servers (the identity provider, the market-data stand-in) match no documented path.

type Schema = { [keyword: string]: unknown };
type MediaTypes = Record<string, { schema?: Schema }>;
type Operation = { responses: Record<string, { content?: MediaTypes }> };
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const DOCUMENT_FILE = path.resolve(process.cwd(), 'docs/openapi.json');
const DOCUMENT_ID = 'openapi.json';
const SETTLE_LIMIT_MS = 60_000;

let checker: ResponseChecker | undefined;

/** The document's routes as patterns, static paths first (`/api/symbols/summary` before `/api/symbols/{symbol}`). */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { template: string; pattern: RegExp; item: Record<string, Operation> }[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({ template, item, pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
      .sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
  }

  static fromCommittedDocument(): ResponseChecker {
    return new ResponseChecker(JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenApiDocument);
  }

  /** What is wrong with this answer; empty when it matches the document or no documented route is asked. */
  problems(method: string, url: string, status: number, contentType: string | null, body: string): string[] {
    const { pathname } = new URL(url);
    const route = this.routes.find((candidate) => candidate.pattern.test(pathname));
    const operation = route?.item[method.toLowerCase()];
    if (route === undefined || operation === undefined) return [];
    const where = `${method} ${pathname} → ${status}`;
    const response = operation.responses[String(status)] ?? operation.responses.default;
    if (response === undefined) return [`${where}: status not documented for ${route.template}`];
    if (response.content === undefined) return body === '' || status >= 300 ? [] : [`${where}: a body where the document has none`];
    const mediaType = (contentType ?? '').split(';')[0].trim();
    const documented = response.content[mediaType];
    if (documented === undefined) return [`${where}: media type '${mediaType}' not documented (${Object.keys(response.content).join(', ')})`];
    // Pages and files: the media type is what the document says; their content is not JSON to check.
    if (documented.schema === undefined || !/(^application\/(x-nd)?json$)|\+json$/.test(mediaType)) return [];
    const validate = this.validator(`${route.template} ${method} ${status} ${mediaType}`, documented.schema);
    const values = mediaType === 'application/x-ndjson' ? body.split('\n').filter((line) => line !== '') : [body];
    const problems: string[] = [];
    for (const text of values) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        problems.push(`${where}: not JSON: ${text.slice(0, 200)}`);
        continue;
      }
      if (!validate(value)) {
        const errors = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
        problems.push(`${where}: the body does not match ${route.template}'s schema: ${errors.join('; ')}`);
      }
    }
    return problems;
  }

  private validator(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as Schema);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** Wraps `fetch`: each answer is checked in the background; `settle()` waits for the checks and returns the problems. */
export function checkResponsesOfFetch(): { settle(): Promise<string[]> } {
  const realFetch = globalThis.fetch;
  const pending = new Set<Promise<void>>();
  let problems: string[] = [];
  globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const response = await realFetch(input, init);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const url = response.url || (input instanceof Request ? input.url : String(input));
    if (method !== 'HEAD' && response.type !== 'opaqueredirect') {
      checker ??= ResponseChecker.fromCommittedDocument();
      const copy = response.clone();
      const check = copy
        .text()
        .then(
          (body) => {
            problems.push(...checker!.problems(method, url, response.status, response.headers.get('content-type'), body));
          },
          () => undefined, // the test dropped the answer (an abort, a killed service): nothing to check
        )
        .finally(() => pending.delete(check));
      pending.add(check);
    }
    return response;
  };
  return {
    async settle() {
      // A stream the test left unread to its end is not waited for past a minute.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all([...pending]), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_LIMIT_MS)))]);
      clearTimeout(timer);
      const found = [...new Set(problems)];
      problems = [];
      return found;
    },
  };
}
