import { ResponseChecker } from './support/api-responses.js';

// The check every suite's answers go through (test/support/check-api-responses.ts) finds what differs.

const checker = ResponseChecker.fromCommittedDocument();
const JSON_TYPE = 'application/json; charset=utf-8';
const live = JSON.stringify({ status: 'alive', timestamp: '2026-11-25T06:40:13.523672' });

describe('checking answers against docs/openapi.json', () => {
  it('passes an answer that matches its schema, and ignores paths the document does not have', () => {
    expect(checker.problems('GET', 'http://127.0.0.1:1/health/live', 200, JSON_TYPE, live)).toEqual([]);
    expect(checker.problems('GET', 'http://127.0.0.1:1/dev-idp/auth', 200, 'text/html', '<html>')).toEqual([]);
    expect(checker.problems('GET', 'http://127.0.0.1:1/api/months', 401, JSON_TYPE, '{"success":false,"error":"Authentication required","redirect_to_login":true}')).toEqual([]);
  });

  it('finds a missing field, an extra field, a wrong type and a wrong media type', () => {
    expect(checker.problems('GET', 'http://127.0.0.1:1/health/live', 200, JSON_TYPE, '{"status":"alive"}')).toEqual([
      expect.stringContaining("must have required property 'timestamp'"),
    ]);
    expect(checker.problems('GET', 'http://127.0.0.1:1/health/live', 200, JSON_TYPE, live.replace('}', ',"extra":1}'))).toEqual([
      expect.stringContaining('must NOT have additional properties'),
    ]);
    expect(checker.problems('GET', 'http://127.0.0.1:1/api/months', 500, JSON_TYPE, '{"success":false,"error":7}')).toEqual([expect.stringContaining('/error must be string')]);
    expect(checker.problems('GET', 'http://127.0.0.1:1/health/live', 200, 'text/plain', 'alive')).toEqual([expect.stringContaining("media type 'text/plain' not documented")]);
  });

  it('checks each line of the import stream, and prefers a static path to a parameter', () => {
    const stream = '{"type":"progress","percentage":25,"message":"Starting data processing..."}\n{"type":"done"}\n';
    expect(checker.problems('POST', 'http://127.0.0.1:1/api/upload-csv', 200, 'application/x-ndjson; charset=utf-8', stream)).toEqual([
      expect.stringContaining('POST /api/upload-csv → 200: the body does not match'),
    ]);
    expect(checker.problems('GET', 'http://127.0.0.1:1/api/symbols/summary', 200, JSON_TYPE, '{"success":true,"symbols":[],"data_source":"postgresql"}')).toEqual([]);
  });
});
