import { startService, type RunningService } from './support/service.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

describe('health probes and the error envelope', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const get = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${service.url}${path}`, init);
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: (await response.json()) as Record<string, any> };
  };

  it('GET /health answers healthy with the service name', async () => {
    const { status, body } = await get('/health');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'healthy', timestamp: expect.stringMatching(TIMESTAMP), service: 'stocks-trading-analysis' });
  });

  it('GET /health/live and /health/ready answer alive and ready', async () => {
    expect(await get('/health/live')).toMatchObject({ status: 200, body: { status: 'alive', timestamp: expect.stringMatching(TIMESTAMP) } });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', timestamp: expect.stringMatching(TIMESTAMP) });
  });

  it('GET /health/detailed reports the database, environment and disk checks', async () => {
    const { status, body } = await get('/health/detailed');
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'healthy',
      timestamp: expect.stringMatching(TIMESTAMP),
      service: 'stocks-trading-analysis',
      checks: {
        database: { status: 'healthy', message: expect.stringContaining('PostgreSQL') },
        environment: { status: 'healthy', message: expect.any(String) },
        disk_space: { status: 'healthy', message: expect.stringMatching(/free/) },
      },
    });
  });

  it('timestamps carry microseconds and differ between calls', async () => {
    const first = (await get('/health/live')).body.timestamp as string;
    const second = (await get('/health/live')).body.timestamp as string;
    expect(first).toMatch(TIMESTAMP);
    expect(second > first).toBe(true);
  });

  it('an unknown /api path is a 404 JSON error, not an HTML page', async () => {
    const { status, type, body } = await get('/api/no-such-endpoint');
    expect(status).toBe(404);
    expect(type).toContain('application/json');
    expect(body).toEqual({ success: false, error: 'Not found' });
  });

  it('a malformed JSON body is a 400 with a readable message', async () => {
    const { status, body } = await get('/health', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/JSON/);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.js:\d+/);
  });
});
