import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  assertNoSeriousViolations,
  describeInChromium,
  DESKTOP,
  firstRowFields,
  PHONE,
  screenshotBothSizes,
  settle,
  signInThroughBrowser,
  startChromiumOnService,
  type ChromiumOnService,
  type ChromiumSession,
} from './support/chromium.js';
import { startFakeFinnhub, type FakeFinnhub } from './support/fake-finnhub.js';

// The portfolio page in a real browser, priced by a local stand-in for Finnhub: add, edit and delete a
// holding, import a holdings CSV with a bad row, refresh prices, take a snapshot and see the history.

const EMAIL = 'web-investor@example.com';

describeInChromium('web app: the portfolio page (Chromium)', () => {
  let finnhub: FakeFinnhub;
  let web: ChromiumOnService;
  let browser: ChromiumSession;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    finnhub = await startFakeFinnhub({ quotes: { VTI: { c: 250, pc: 248 }, AAPL: { c: 190.5, pc: 188 }, SCHD: { c: 27.1, pc: 27 } } });
    web = await startChromiumOnService({ AUTHORIZED_USERS: EMAIL, FINNHUB_API_KEY: finnhub.token, FINNHUB_BASE_URL: finnhub.url });
    ({ browser, page, base } = web);
    await signInThroughBrowser(page, base, EMAIL);
  });
  afterAll(async () => {
    await web?.close();
    await finnhub?.close();
  });

  const holdingsTable = () => page.getByRole('region', { name: 'Your holdings', exact: true });
  const row = (symbol: string) => holdingsTable().locator('tbody tr').filter({ hasText: symbol });


  it('adds a holding, priced with its gain', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' }).click();
    await page.getByText(/No holdings yet/).waitFor();
    await page.getByLabel('Symbol', { exact: true }).fill('vti');
    await page.getByLabel('Type').selectOption('etf');
    await page.getByLabel('Shares', { exact: true }).fill('10');
    await page.getByLabel('Average cost per share ($)').fill('200');
    await page.getByRole('button', { name: 'Add holding' }).click();
    await page.getByText('Added VTI.').waitFor();
    await row('VTI').waitFor();
    const cells = await row('VTI').locator('td').allInnerTexts();
    expect(cells).toEqual(expect.arrayContaining(['10', '$2,500.00', '+$500.00', '+25.00%']));
    expect(cells[0]).toContain('ETF');
  });

  it('edits the holding', async () => {
    await page.getByRole('button', { name: 'Edit VTI' }).click();
    const form = page.getByRole('form', { name: 'Edit VTI' });
    await form.getByLabel('Shares').fill('12');
    await form.getByLabel('Average cost per share ($)').fill('225.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved VTI: 12 shares at $225.50.').waitFor();
    await page.waitForFunction(() => document.querySelector('[aria-label="Your holdings"] tbody tr')?.textContent?.includes('$3,000.00'));
    expect(await row('VTI').locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['12', '$3,000.00', '+$294.00']));
    // The totals are the server's (GET /api/portfolio/holdings `totals`), not sums made in the browser;
    // the summary is its own request, which may answer after the table's.
    await page.waitForFunction(() => document.querySelector('[aria-label="Portfolio totals"]')?.textContent?.includes('$3,000.00'));
    const totals = await page.getByLabel('Portfolio totals').innerText();
    for (const figure of ['$3,000.00', '$2,706.00', '+$294.00', '+10.86%']) expect(totals).toContain(figure);
  });

  it('imports a holdings CSV, showing the rows it skipped', async () => {
    await page.getByText('Import holdings from a CSV file').click();
    const csv = 'symbol,shares,average_cost,type\nAAPL,5,150,STOCK\nSCHD,x,25,ETF\nSCHD,100,25.5,ETF\n';
    await page.getByLabel('Holdings CSV').setInputFiles({ name: 'holdings.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const notice = page.locator('.csv-import .notice');
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toMatch(/Added 2, updated 0; 1 row skipped/);
    expect(text).toMatch(/Row 3: .*shares/);
    await row('AAPL').waitFor();
    await row('SCHD').waitFor();
  });

  it('refreshes prices and takes a snapshot that appears in the history', async () => {
    await page.getByRole('button', { name: 'Refresh prices' }).click();
    await page.getByText(/Updated prices for 3 holdings/).waitFor();
    expect(await row('SCHD').locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['$2,710.00', '+$160.00']));

    await page.getByLabel('Notes (optional)', { exact: true }).last().fill('after the refresh');
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await page.getByText(/^Snapshot taken: /).waitFor();
    // Manual ones only: the service's end-of-day job may add the last trading day's EOD snapshot to the
    // history at any minute once the user has holdings.
    await page.getByLabel('Snapshots', { exact: true }).selectOption('MANUAL');
    const snapshots = page.getByRole('region', { name: 'Snapshots, newest first' });
    // Until the filtered answer comes, the table may still show every kind (an end-of-day one too).
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[aria-label="Snapshots, newest first"] tbody tr')];
      return rows.length > 0 && rows.every((row) => row.textContent?.includes('Taken by hand'));
    });
    expect(await snapshots.locator('tbody tr').count()).toBe(1);

    expect(await snapshots.innerText()).toContain('after the refresh');
    expect(await snapshots.locator('tbody tr').first().innerText()).toContain('Taken by hand');
    await page.getByText('The chart appears from the second snapshot on.').waitFor();
    // A second snapshot: now there is a line to draw.
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Snapshots, newest first"] tbody tr').length === 2);
    await page.locator('section[aria-labelledby="history"] canvas[role="img"]').waitFor();
    await page.getByLabel('Snapshots', { exact: true }).selectOption('AUTOMATIC');
    await page.getByText(/No snapshots in this period/).waitFor();
    await page.getByLabel('Snapshots', { exact: true }).selectOption('');
    await snapshots.locator('tbody tr').first().waitFor();
    await assertNoSeriousViolations(page, 'the portfolio');
    await settle(page);
    await screenshotBothSizes(page, 'portfolio');
    // On a phone a holding is a card that keeps its shares and cost, not only its symbol and value.
    await page.setViewportSize(PHONE);
    expect(await firstRowFields(page, 'Your holdings')).toEqual({
      card: true,
      fields: ['Symbol', 'Shares', 'Price', 'Cost', 'Value', 'Gain/loss', 'Return', 'Actions'],
    });
    await page.setViewportSize(DESKTOP);
  });

  it('deletes a holding after asking', async () => {
    await page.getByRole('button', { name: 'Delete AAPL' }).click();
    await page.getByRole('button', { name: 'Yes, delete AAPL' }).click();
    await page.waitForFunction(() => !document.querySelector('[aria-label="Your holdings"]')?.textContent?.includes('AAPL'));
    expect(await row('AAPL').count()).toBe(0);
    expect(await row('VTI').count()).toBe(1);
  });

  it('deletes a snapshot after asking, and says which', async () => {
    await page.getByLabel('Snapshots', { exact: true }).selectOption('MANUAL');
    const manual = page.locator('[aria-label="Snapshots, newest first"] tbody tr').filter({ hasText: 'Taken by hand' });
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[aria-label="Snapshots, newest first"] tbody tr')];
      return rows.length === 2 && rows.every((row) => row.textContent?.includes('Taken by hand'));
    });
    const offer = page.getByRole('button', { name: /^Delete the snapshot of / });
    // Taken within a second or two: their times (to the second, then numbered), and so their buttons, differ.
    const names = await offer.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
    expect(new Set(names).size).toBe(2);
    await offer.first().click();
    await page.getByRole('button', { name: /^Keep the snapshot of / }).click();
    await offer.first().click();
    await assertNoSeriousViolations(page, 'the portfolio asking before it deletes a snapshot');
    await screenshotBothSizes(page, 'portfolio-delete-snapshot');
    await page.getByRole('button', { name: /^Yes, delete the snapshot of / }).click();
    await page.getByText(/^Deleted MANUAL snapshot taken at \d{4}-\d\d-\d\dT/).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Snapshots, newest first"] tbody tr').length === 1);
    expect(await manual.count()).toBe(1);
  });

  it("imports any broker's files dropped on the Import page, each into its account, and says what each file was", async () => {
    await page.goto(`${base}/import`);
    await page.getByRole('heading', { name: 'Upload from any broker' }).waitFor();
    await page.getByLabel('Account number').fill('XXXX-1234');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: your uploads go to account XXXX-1234.').waitFor();
    // One file dropped on the zone, one chosen with the file picker.
    const statement = readFileSync(path.resolve(process.cwd(), 'test/fixtures/interactive-brokers/activity-statement.csv'), 'utf8');
    await page.getByTestId('drop-zone').evaluate((zone, text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'U1234567.csv', { type: 'text/csv' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, statement);
    await page.getByLabel('Choose files').setInputFiles(path.resolve(process.cwd(), 'test/fixtures/robinhood/activity.csv'));
    expect(await page.getByRole('list', { name: 'Files to import' }).locator('li').allInnerTexts()).toEqual([
      expect.stringContaining('U1234567.csv'),
      expect.stringContaining('activity.csv'),
    ]);
    await page.getByLabel('Account (optional)').fill('RH-1');
    // Before importing, the page says what each file is and which account it goes to.
    const before = page.getByRole('region', { name: 'Before importing: what each file is and where it goes' });
    await before.locator('tbody tr').nth(1).waitFor();
    expect(await before.locator('tbody tr').first().innerText()).toMatch(/U1234567\.csv\s+Interactive Brokers Activity Statement\s+Transactions\s+15\s+U1234567 \(from the file\)/);
    expect(await before.locator('tbody tr').nth(1).innerText()).toMatch(/activity\.csv\s+Robinhood Account Activity\s+Transactions\s+11\s+RH-1/);
    await assertNoSeriousViolations(page, 'import (any broker, before importing)');
    await page.getByRole('button', { name: 'Import 2 files' }).click();
    await page.getByText('Successfully processed files.').waitFor({ timeout: 60000 });
    const detected = page.getByRole('region', { name: 'What each file was' });
    expect(await detected.locator('tbody tr').first().innerText()).toMatch(/U1234567\.csv\s+Interactive Brokers\s+Transactions\s+15\s+U1234567/);
    expect(await detected.locator('tbody tr').nth(1).innerText()).toMatch(/activity\.csv\s+Robinhood\s+Transactions\s+11\s+RH-1/);
    // The chosen files are cleared, and the history has one row per account.
    expect(await page.getByRole('list', { name: 'Files to import' }).count()).toBe(0);
    await page.getByRole('region', { name: 'Earlier uploads, newest first' }).locator('tbody tr').nth(1).waitFor();
    await assertNoSeriousViolations(page, 'import (any broker)');
    await screenshotBothSizes(page, 'import-any-broker');
  });

  it('logged no errors in the browser console', () => {
    expect(browser.failedResponses).toEqual([]);
    expect(browser.consoleErrors).toEqual([]);
  });
});
