import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  describeInChromium,
  signInThroughBrowser,
  startChromiumOnService,
  type ChromiumOnService,
  type ChromiumSession,
} from './support/chromium.js';
import { startService, type RunningService } from './support/service.js';

// The OpenAPI document and its explorer as the service serves them: public, the committed document,
// and Swagger UI working under the app's Content Security Policy with the browser's session.

const COMMITTED = readFileSync(path.resolve(process.cwd(), 'docs/openapi.json'), 'utf8');
const EMAIL = 'api-explorer@example.com';

describe('GET /api/openapi.json and /api/docs', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('serves the committed document without a session, cacheable', async () => {
    const response = await fetch(`${service.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await response.json()).toEqual(JSON.parse(COMMITTED));
  });

  it('serves the explorer page without a session, with the security headers and no inline script', async () => {
    const response = await fetch(`${service.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self';");
    const html = await response.text();
    expect(html).toContain('swagger-ui-init.js');
    expect(html).not.toMatch(/<script>[^<]/);
  });
});

describeInChromium('Swagger UI at /api/docs (Chromium)', () => {
  let web: ChromiumOnService;
  let browser: ChromiumSession;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    web = await startChromiumOnService({ AUTHORIZED_USERS: EMAIL });
    ({ browser, page, base } = web);
  });
  afterAll(async () => {
    await web?.close();
  });

  it('lists every operation under the Content Security Policy, and "Try it out" answers with the session', async () => {
    await signInThroughBrowser(page, base, EMAIL);
    await page.goto(`${base}/api/docs`);
    const operations = Object.values(JSON.parse(COMMITTED).paths as Record<string, object>).reduce((sum: number, item) => sum + Object.keys(item).length, 0);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations);

    const months = page.locator('#operations-Trading_data-Months_months');
    await months.locator('.opblock-summary').click();
    await months.getByRole('button', { name: 'Try it out' }).click();
    await months.getByRole('button', { name: 'Execute' }).click();
    const status = months.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    expect(await months.locator('.live-responses-table .microlight').first().innerText()).toContain('"success": true');

    expect(browser.consoleErrors).toEqual([]);
  });
});
