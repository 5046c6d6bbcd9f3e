import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  assertNoSeriousViolations,
  describeInChromium,
  importExampleThroughBrowser,
  screenshotBothSizes,
  settle,
  signInThroughBrowser,
  startChromiumOnService,
  type ChromiumOnService,
  type ChromiumSession,
} from './support/chromium.js';

// Several brokerage accounts in a real browser: the top bar offers a choice of account once the user
// has more than one, every report then shows that account's figures alone (as `?account=` gives
// them), the choice is remembered on the next visit, and "All accounts" brings the sum back; the import
// page empties an account and deletes it.

const EMAIL = 'web-accounts@example.com';

describeInChromium('web app: the reports of one account or of all (Chromium)', () => {
  let web: ChromiumOnService;
  let browser: ChromiumSession;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    web = await startChromiumOnService({ AUTHORIZED_USERS: EMAIL });
    ({ browser, page, base } = web);
    await signInThroughBrowser(page, base, EMAIL);
    await importExampleThroughBrowser(page, base);
  });
  afterAll(async () => {
    await web?.close();
  });

  const picker = () => page.getByLabel('Account', { exact: true });
  const symbolRows = () => page.getByRole('region', { name: 'Results by symbol' }).locator('tbody tr');
  /** The symbols `/api/symbols/summary` lists, for all accounts or the one `query` names. */
  const symbolsOf = async (query: string): Promise<string[]> =>
    ((await (await page.request.get(`${base}/api/symbols/summary${query}`)).json()) as { symbols: { symbol: string }[] }).symbols.map((row) => row.symbol);
  /** The symbols the page's table shows, once it shows `count` of them (the new answer may take a moment). */
  async function shownSymbols(count: number): Promise<string[]> {
    const deadline = Date.now() + 15_000;
    while ((await symbolRows().count()) !== count && Date.now() < deadline) await page.waitForTimeout(100);
    return (await symbolRows().locator('td:first-child a').allInnerTexts()).map((text) => text.trim());
  }

  it('offers no choice of account to a user with one', async () => {
    await page.goto(`${base}/symbols`);
    await symbolRows().first().waitFor();
    await settle(page);
    expect(await picker().count()).toBe(0);
  });

  it('after an import into a second account, shows one account or all, and remembers the choice', async () => {
    await page.goto(`${base}/import`);
    await page.getByLabel('Choose files').setInputFiles(path.resolve(process.cwd(), 'test/fixtures/robinhood/activity.csv'));
    await page.getByLabel('Account (optional)').fill('RH-1');
    await page.getByRole('button', { name: 'Import 1 file' }).click();
    await page.getByText('Successfully processed files.').waitFor({ timeout: 60_000 });
    // The new account is offered at once, without reloading the page.
    await picker().waitFor();
    expect(await picker().locator('option').allInnerTexts()).toEqual(['All accounts', 'XXXX-1234 (default)', 'RH-1']);
    expect(await picker().inputValue()).toBe('');

    const all = await symbolsOf('');
    const robinhood = await symbolsOf('?account=RH-1');
    const schwab = await symbolsOf('?account=XXXX-1234');
    expect(robinhood.length).toBeGreaterThan(0);
    expect(robinhood.length).toBeLessThan(all.length);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Symbols' }).click();
    expect((await shownSymbols(all.length)).sort()).toEqual([...all].sort());

    await picker().selectOption('RH-1');
    expect((await shownSymbols(robinhood.length)).sort()).toEqual([...robinhood].sort());
    // Another page shows the same account: April 2024 holds Robinhood's AAPL sale alone.
    await page.goto(`${base}/month/2024-04`);
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
    await settle(page);
    expect(await picker().inputValue()).toBe('RH-1');
    const april = (await (await page.request.get(`${base}/api/month/2024-04?account=RH-1`)).json()) as { trades: { symbol: string }[] };
    const tradeRows = page.getByRole('region', { name: 'Trades closed in April 2024' }).locator('tbody tr');
    expect(await tradeRows.count()).toBe(april.trades.length);
    await assertNoSeriousViolations(page, 'the month of one account');

    // Remembered on the next visit.
    await page.goto(`${base}/symbols`);
    expect(await picker().inputValue()).toBe('RH-1');
    expect((await shownSymbols(robinhood.length)).sort()).toEqual([...robinhood].sort());
    await screenshotBothSizes(page, 'symbols-one-account');

    await picker().selectOption('XXXX-1234');
    expect((await shownSymbols(schwab.length)).sort()).toEqual([...schwab].sort());
    await picker().selectOption('');
    expect((await shownSymbols(all.length)).sort()).toEqual([...all].sort());
  });

  it("removes one account's imports from the import page, and every report shows the other's alone", async () => {
    const schwab = await symbolsOf('?account=XXXX-1234');
    await page.goto(`${base}/import`);
    const accounts = page.getByRole('region', { name: 'Your brokerage accounts' });
    await page.getByRole('button', { name: 'Remove the imports of RH-1…' }).waitFor();
    expect((await accounts.locator('tbody tr td:first-child').allInnerTexts()).map((text) => text.trim())).toEqual(['XXXX-1234 (default)', 'RH-1']);
    await page.getByRole('button', { name: 'Remove the imports of RH-1…' }).click();
    // Asked once more; keeping changes nothing.
    await page.getByRole('button', { name: 'Keep account RH-1' }).click();
    expect((await symbolsOf('?account=RH-1')).length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Remove the imports of RH-1…' }).click();
    await assertNoSeriousViolations(page, 'the import page asking before it removes an account\'s imports');
    await screenshotBothSizes(page, 'import-remove-account');
    await page.getByRole('button', { name: 'Yes, remove everything imported into RH-1' }).click();
    await page.getByText(/^Removed what the imports put into account RH-1: \d+ transactions and 0 lots\.$/).waitFor();
    expect(await symbolsOf('?account=RH-1')).toEqual([]);
    expect((await symbolsOf('')).sort()).toEqual([...schwab].sort());
    // The account stays, empty: still offered by the top bar.
    expect(await picker().locator('option').allInnerTexts()).toEqual(['All accounts', 'XXXX-1234 (default)', 'RH-1']);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Symbols' }).click();
    expect((await shownSymbols(schwab.length)).sort()).toEqual([...schwab].sort());
  });

  it('deletes the emptied account from the import page: the top bar no longer offers a choice', async () => {
    const accounts = page.getByRole('region', { name: 'Your brokerage accounts' });
    await page.goto(`${base}/import`);
    await page.getByRole('button', { name: 'Delete RH-1…' }).click();
    await page.getByRole('button', { name: 'Keep RH-1 as it is' }).click();
    await page.getByRole('button', { name: 'Delete RH-1…' }).click();
    await assertNoSeriousViolations(page, 'the import page asking before it deletes an account');
    await screenshotBothSizes(page, 'import-delete-account');
    await page.getByRole('button', { name: 'Yes, delete account RH-1 with its imports, tags and notes' }).click();
    await page.getByText('Deleted account RH-1 with 0 transactions and 0 lots.').waitFor();
    expect((await accounts.locator('tbody tr td:first-child').allInnerTexts()).map((text) => text.trim())).toEqual(['XXXX-1234 (default)']);
    // The default account cannot be deleted: no button offers it.
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Symbols' }).click();
    await symbolRows().first().waitFor();
    await settle(page);
    expect(await picker().count()).toBe(0);
  });

  it('logged no errors in the browser console', () => {
    expect(browser.failedResponses).toEqual([]);
    expect(browser.consoleErrors).toEqual([]);
  });
});
