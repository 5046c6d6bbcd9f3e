import type { Page } from 'playwright-core';
import {
  assertNoSeriousViolations,
  describeInChromium,
  DESKTOP,
  importExampleThroughBrowser,
  PHONE,
  screenshotBothSizes,
  signInThroughBrowser,
  startChromiumOnService,
  type ChromiumOnService,
} from './support/chromium.js';
import { expected } from './support/uploads.js';

// The journal in a real browser: tag a trade with a chip (suggested from the user's tags), remove it with
// one click, write a note holding markup that must stay text, filter by tag, see the tag's figures on
// the Tags page and rename it there, and keep a note on a calendar day.

const EMAIL = 'web-journal@example.com';
const HOSTILE = '<script>window.__journalPwned = 1</script><img src=x onerror="window.__journalPwned = 2"> **bold**';

describeInChromium('web app: the journal (Chromium)', () => {
  let web: ChromiumOnService;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    web = await startChromiumOnService({ AUTHORIZED_USERS: EMAIL });
    ({ page, base } = web);
    await signInThroughBrowser(page, base, EMAIL);
    await importExampleThroughBrowser(page, base);
  });
  afterAll(async () => {
    await web?.close();
  });

  const nvdaTrade = 'NVDA closed 2024-05-08';

  it('tags a trade with chips, suggests the user\'s tags, and removes a tag with one click', async () => {
    await page.goto(`${base}/trades?symbols=NVDA&sort=profit_loss`);
    const add = page.getByLabel(`Add a tag to ${nvdaTrade}`).first();
    await add.fill('Breakout');
    await add.press('Enter');
    const chips = page.getByRole('list', { name: `Tags of ${nvdaTrade}` }).first();
    await chips.getByText('Breakout').waitFor();
    await add.fill('late exit');
    await add.press('Enter');
    await chips.getByText('late exit').waitFor();
    // The second NVDA trade of the day suggests the tags already written (once the tag list, read
    // again after each save, has come back: a loaded machine may take a moment).
    const second = await page.getByLabel(`Add a tag to ${nvdaTrade}`).nth(1).elementHandle();
    await page.waitForFunction((input) => ((input as HTMLInputElement).list?.options.length ?? 0) >= 2, second, { timeout: 15_000 }).catch(() => undefined);
    const names = await second?.evaluate((input) => [...((input as HTMLInputElement).list?.options ?? [])].map((option) => option.value));
    expect(names?.sort()).toEqual(['Breakout', 'late exit']);

    await page.getByRole('button', { name: `Remove tag late exit from ${nvdaTrade}` }).first().click();
    await chips.getByText('late exit').waitFor({ state: 'detached' });
    expect(await chips.locator('li').allInnerTexts()).toEqual([expect.stringContaining('Breakout')]);
    // The field takes at most 40 characters (the service refuses longer tags too).
    await add.fill('x'.repeat(40) + 'y');
    expect(await add.inputValue()).toHaveLength(40);
    await assertNoSeriousViolations(page, 'the trades page with tags');
    await screenshotBothSizes(page, 'trades-with-tags');
  });

  it('keeps a note holding markup as text, never as HTML', async () => {
    await page.getByRole('button', { name: `Add a note for ${nvdaTrade}` }).first().click();
    const dialog = page.getByRole('dialog', { name: `Note: ${nvdaTrade}` });
    await dialog.getByLabel(/Why you took it/).fill(HOSTILE);
    await dialog.getByRole('button', { name: 'Save note' }).click();
    await dialog.getByText('Note saved.').waitFor();
    expect(await dialog.getByLabel('Saved note').innerText()).toBe(HOSTILE);
    expect(await dialog.locator('script, img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __journalPwned?: number }).__journalPwned)).toBeUndefined();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: `Note for ${nvdaTrade}` }).first().waitFor();
  });

  it('filters the trades by tag and shows each tag\'s figures on the Tags page, where it can be renamed', async () => {
    await page.goto(`${base}/trades`);
    await page.getByLabel('Tag', { exact: true }).selectOption('Breakout');
    await page.getByRole('heading', { name: '1 trades' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    const table = page.getByRole('region', { name: "Your tags and their trades' figures" });
    await table.getByRole('link', { name: 'Breakout' }).waitFor();
    const row = await table.locator('tbody tr').filter({ hasText: 'Breakout' }).locator('td').allInnerTexts();
    expect(row.slice(0, 6)).toEqual(['Breakout', '1', '100%', '+$525.88', '—', '+$525.88']);
    await assertNoSeriousViolations(page, 'the tags page');
    await screenshotBothSizes(page, 'tags');

    await page.getByRole('button', { name: 'Rename Breakout' }).click();
    await page.getByLabel('New name for Breakout').fill('Breakout A+');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByText("Tag renamed to 'Breakout A+'").waitFor();
    await table.getByRole('link', { name: 'Breakout A+' }).click();
    await page.getByRole('heading', { name: '1 trades' }).waitFor();
    expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('Breakout A+');
  });

  it("leads from a month's trades to the Trades page, where they can be tagged", async () => {
    const inMay = expected<{ trades: { close_date: string }[] }>().trades.filter((trade) => trade.close_date.startsWith('2024-05')).length;
    await page.goto(`${base}/month/2024-05`);
    await page.getByRole('link', { name: 'Tag or annotate these trades' }).click();
    await page.getByRole('heading', { name: `${inMay} trades` }).waitFor();
    expect(new URL(page.url()).searchParams.get('end')).toBe('2024-05-31');
    expect(await page.getByRole('list', { name: /^Tags of / }).count()).toBe(inMay);
  });

  it('keeps a note on a calendar day, shown as text', async () => {
    await page.goto(`${base}/calendar?month=2024-05&date=2024-05-08`);
    await page.getByRole('button', { name: 'Write a note' }).click();
    await page.getByLabel('Note for 2024-05-08').fill('<b>Earnings week</b>\nStayed patient.');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.getByText('Note saved.').waitFor();
    const shown = page.locator('.day-note .note-text');
    expect(await shown.innerText()).toBe('<b>Earnings week</b>\nStayed patient.');
    expect(await shown.locator('b').count()).toBe(0);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize(DESKTOP);
  });

  it('deletes a tag from the Tags page after asking', async () => {
    await page.goto(`${base}/tags`);
    const table = page.getByRole('region', { name: "Your tags and their trades' figures" });
    await table.getByRole('link', { name: 'Breakout A+' }).waitFor();
    await page.getByRole('button', { name: 'Delete Breakout A+' }).click();
    await page.getByRole('button', { name: 'Keep Breakout A+' }).click();
    await page.getByRole('button', { name: 'Delete Breakout A+' }).click();
    await assertNoSeriousViolations(page, 'the tags page asking before it deletes a tag');
    await screenshotBothSizes(page, 'tags-delete');
    await page.getByRole('button', { name: 'Yes, delete the tag Breakout A+ from 1 trade' }).click();
    await page.getByText("Tag 'Breakout A+' deleted").waitFor();
    await table.getByRole('link', { name: 'Breakout A+' }).waitFor({ state: 'detached' });
    // The tag the first test took off its trade stays listed, with no trades, until it is deleted too.
    expect(await table.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['late exit']);
    await page.getByRole('button', { name: 'Delete late exit' }).click();
    await page.getByRole('button', { name: 'Yes, delete the tag late exit from 0 trades' }).click();
    await page.getByRole('heading', { name: 'No tags yet' }).waitFor();
  });

  it('tags the selected trades of a page at once, and takes the tag off all of them', async () => {
    const inMay = expected<{ trades: { close_date: string }[] }>().trades.filter((trade) => trade.close_date.startsWith('2024-05')).length;
    await page.goto(`${base}/trades?start=2024-05-01&end=2024-05-31`);
    await page.getByRole('heading', { name: `${inMay} trades` }).waitFor();
    const boxes = page.getByRole('checkbox', { name: /^Select [A-Z]+ closed 2024-05-\d\d$/ });
    const tagged = page.getByRole('list', { name: /^Tags of / }).filter({ hasText: 'Earnings week' });
    const checked = () => boxes.evaluateAll((all) => all.filter((box) => (box as HTMLInputElement).checked).length);
    expect(await boxes.count()).toBe(inMay);
    const form = page.getByRole('form', { name: 'Tag the selected trades' });
    await form.getByRole('button', { name: 'Apply to the selected trades' }).click();
    await form.getByText('Select the trades to change first.').waitFor();

    await boxes.nth(0).check();
    await boxes.nth(1).check();
    const everyOne = form.getByLabel('Select all on this page');
    expect(await everyOne.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
    await form.getByLabel('Tag to add').fill('Earnings week');
    await form.getByRole('button', { name: 'Apply to 2 selected trades' }).click();
    await form.getByText("2 trades: 'Earnings week' added to 2 trades").waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.chip').length >= 2);
    expect(await tagged.count()).toBe(2);
    expect(await checked()).toBe(0);

    await everyOne.check();
    expect(await checked()).toBe(inMay);
    await form.getByLabel('Tag to remove').fill('earnings WEEK');
    await assertNoSeriousViolations(page, 'the trades page with trades selected');
    await screenshotBothSizes(page, 'trades-selected');
    await form.getByRole('button', { name: `Apply to ${inMay} selected trades` }).click();
    await form.getByText(`${inMay} trades: 'Earnings week' removed from 2 trades`).waitFor();
    await tagged.first().waitFor({ state: 'detached' });

    // Another order (or page, or filter) starts with nothing selected: a change never reaches trades out of sight.
    await boxes.nth(0).check();
    await page.getByLabel('Sort by').selectOption('symbol');
    await page.waitForURL(/sort=symbol/);
    await boxes.first().waitFor();
    expect(await checked()).toBe(0);
    expect(await form.getByRole('status').innerText()).toBe('');
  });

  it("tags the selected trades of a calendar day, and takes the tag off on the symbol's page", async () => {
    const trades = expected<{ trades: { symbol: string; close_date: string }[] }>().trades;
    const ofDay = trades.filter((trade) => trade.close_date === '2024-05-08');
    const nvdaOfDay = ofDay.filter((trade) => trade.symbol === 'NVDA').length;
    const plural = (count: number, before = '') => `${count} ${before}trade${count === 1 ? '' : 's'}`;
    const chips = (tag: string) => page.locator('.chip').filter({ hasText: tag });
    await page.goto(`${base}/calendar?month=2024-05&date=2024-05-08`);
    const form = page.getByRole('form', { name: 'Tag the selected trades' });
    await form.getByLabel('Select all on this page').check();
    expect(await page.getByRole('checkbox', { name: /^Select [A-Z]+ closed 2024-05-08$/, checked: true }).count()).toBe(ofDay.length);
    await form.getByLabel('Tag to add').fill('FOMC week');
    await form.getByRole('button', { name: `Apply to ${plural(ofDay.length, 'selected ')}` }).click();
    await form.getByText(`'FOMC week' added to ${plural(ofDay.length)}`).waitFor();
    await page.waitForFunction((count) => [...document.querySelectorAll('.chip')].filter((chip) => chip.textContent?.includes('FOMC week')).length === count, ofDay.length);
    await assertNoSeriousViolations(page, 'a calendar day with a tag given to its trades at once');

    await page.goto(`${base}/symbols/NVDA`);
    await chips('FOMC week').first().waitFor();
    expect(await chips('FOMC week').count()).toBe(nvdaOfDay);
    await form.getByLabel('Select all on this page').check();
    await form.getByLabel('Tag to remove').fill('fomc week');
    await form.getByRole('button', { name: /^Apply to \d+ selected trades?$/ }).click();
    await form.getByText(`'FOMC week' removed from ${plural(nvdaOfDay)}`).waitFor();
    await chips('FOMC week').first().waitFor({ state: 'detached' });
  });
});
