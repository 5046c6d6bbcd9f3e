import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startService, type RunningService, type ServiceOptions } from './service.js';
import { FIXTURES } from './uploads.js';

/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser: the machines have no
 * internet). Suites using it are skipped, saying why, where Chromium is not installed; CI installs it.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);

/** Headless, and quiet on a closed network (no background connections, updates or sync). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Where the suites save their screenshots (git-ignored). */
export const SCREENSHOTS = path.resolve(process.cwd(), 'test-output/screenshots');

/** `describe` when Chromium is installed; otherwise a skipped `describe` whose name says why. */
export function describeInChromium(name: string, suite: () => void): void {
  if (HAS_CHROMIUM) {
    describe(name, suite);
    return;
  }
  process.stderr.write(`\n[web e2e] ${name}: skipped, no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
  describe.skip(`${name} [skipped: no Chromium at ${CHROMIUM_PATH}; apt-get install chromium]`, suite);
}

export interface ChromiumSession {
  context: BrowserContext;
  page: Page;
  /** Messages the pages wrote to the console as errors, and uncaught exceptions. */
  consoleErrors: string[];
  /** Answers of 400 and above the pages received: `<status> <METHOD> <path>`. */
  failedResponses: string[];
  close(): Promise<void>;
}

/** A fresh browser profile (its own --user-data-dir) with one page, at desktop size. */
export async function launchChromium(): Promise<ChromiumSession> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'sta-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
    acceptDownloads: true,
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  context.setDefaultTimeout(15000);
  const consoleErrors: string[] = [];
  const failedResponses: string[] = [];
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('response', (response) => {
    if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return {
    context,
    page,
    consoleErrors,
    failedResponses,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The service and a fresh Chromium for it, as the browser suites start them before their tests. */
export interface ChromiumOnService {
  service: RunningService;
  browser: ChromiumSession;
  page: Page;
  /** The address the service calls itself by (PUBLIC_URL's default, http://localhost:<port>): the sign-in returns there. */
  base: string;
  /** Closes the browser, then stops the service. */
  close(): Promise<void>;
}

/** Starts the service with `env`, then a fresh browser profile for it (the service is stopped again if the browser fails to start). */
export async function startChromiumOnService(env: ServiceOptions['env'] = {}): Promise<ChromiumOnService> {
  const service = await startService({ env });
  let browser: ChromiumSession;
  try {
    browser = await launchChromium();
  } catch (error) {
    await service.stop();
    throw error;
  }
  return {
    service,
    browser,
    page: browser.page,
    base: service.url.replace('127.0.0.1', 'localhost'),
    close: async () => {
      await browser.close();
      await service.stop();
    },
  };
}

/**
 * Signs in as a person does: the service sends the signed-out browser to its login page, "Sign in"
 * goes to the built-in identity provider, which asks for an e-mail address, and back to `/`.
 */
export async function signInThroughBrowser(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(`${baseUrl}/auth/login`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/**
 * On the Import page of a signed-in user without an account number: saves `account` as the profile's
 * and imports the Schwab example's pair with the form, as a person does, to its success line.
 */
export async function importExampleThroughBrowser(page: Page, baseUrl: string, account = 'XXXX-1234'): Promise<void> {
  await page.goto(`${baseUrl}/import`);
  // The form is filled once the profile has loaded (until then it is disabled).
  await page.getByText('Set your account number first.').waitFor();
  await page.getByLabel('Account number').fill(account);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`Saved: your uploads go to account ${account}.`).waitFor();
  await page.getByLabel('Transactions CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'transactions.csv'));
  await page.getByLabel('Realized gain/loss (lot details) CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'realized_gains.csv'));
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText('Successfully processed files.').waitFor({ timeout: 60_000 });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const AXE_SOURCE = path.resolve(process.cwd(), 'node_modules/axe-core/axe.min.js');

/**
 * Runs axe-core (WCAG 2.1 A/AA and best practices) on the page as it is now and returns the serious
 * and critical violations. axe is injected through the DevTools protocol, which the page's CSP allows.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** A readable list of violations for a failing expectation. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n  ')}`).join('\n');
}

/** Fails, naming `what` (the page or state checked), when axe-core finds a serious or critical violation on the page as it is. */
export async function assertNoSeriousViolations(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  if (violations.length > 0) throw new Error(`axe-core on ${what}:\n${describeViolations(violations)}`);
}

/** The narrowest phone the app is laid out for: no page scrolls sideways at this width. */
export const NARROW_PHONE = { width: 360, height: 780 };

/**
 * What does not fit at the current width: the page itself scrolling sideways, a table wider than its
 * region (a table fits its card at every width; on a phone its rows become cards), or two controls
 * (links, buttons, fields) drawn over each other, where a tap meant for one reaches the other or
 * neither can be read.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const page = document.documentElement;
    if (page.scrollWidth > window.innerWidth) problems.push(`the page is ${page.scrollWidth} px wide`);
    for (const region of Array.from(document.querySelectorAll<HTMLElement>('.table-scroll'))) {
      if (region.offsetParent === null) continue; // not displayed
      if (region.scrollWidth > region.clientWidth + 1) {
        problems.push(`table "${region.getAttribute('aria-label')}" is ${region.scrollWidth} px wide in ${region.clientWidth} px`);
      }
    }
    const name = (element: Element) => {
      const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ');
      return `${element.tagName.toLowerCase()} "${text.slice(0, 40)}"`;
    };
    // Displayed controls' boxes (a link wrapped over two lines has one box on each), by their tops; a
    // control inside another (a link holding a button) is one control. Hidden ones (in a closed
    // <details>, transparent, a file input under its button) are not drawn.
    const boxes = Array.from(document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea'))
      .filter((element) => element.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true }))
      .flatMap((element) => Array.from(element.getClientRects(), (box) => ({ element, box })))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      .sort((a, b) => a.box.top - b.box.top);
    // Boxes touching by a pixel (rounding, borders) are not drawn over each other.
    const SLACK = 1;
    const reported = new Set<string>();
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i];
      for (let j = i + 1; j < boxes.length && boxes[j].box.top < a.box.bottom - SLACK; j++) {
        const b = boxes[j];
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        const problem = `${name(a.element)} and ${name(b.element)} are drawn over each other`;
        if (across > SLACK && down > SLACK && !reported.has(problem)) {
          reported.add(problem);
          problems.push(problem);
        }
      }
    }
    return problems;
  });
}

/**
 * The fields a table's first row shows at the current width, by column header (on a phone, the labels
 * of its card), and whether the row is laid out as a card.
 */
export async function firstRowFields(page: Page, table: string): Promise<{ card: boolean; fields: string[] }> {
  const row = page.getByRole('region', { name: table }).locator('tbody tr').first();
  return row.evaluate((tr) => ({
    card: getComputedStyle(tr).display === 'grid',
    fields: Array.from(tr.querySelectorAll('td'))
      .filter((td) => getComputedStyle(td).display !== 'none')
      .map((td) => td.getAttribute('data-label') ?? ''),
  }));
}

/**
 * Checks the layout at 1280, 390 and 360 px (nothing scrolls sideways, no table is clipped, no two
 * controls overlap) and saves the page at desktop and phone widths: `<name>-1280.png` and
 * `<name>-390.png`.
 */
export async function screenshotBothSizes(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const problems: string[] = [];
  for (const size of [DESKTOP, PHONE, NARROW_PHONE]) {
    await page.setViewportSize(size);
    await settle(page);
    if (size !== NARROW_PHONE) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: true });
    problems.push(...(await layoutProblems(page)).map((problem) => `${name} at ${size.width} px: ${problem}`));
  }
  await page.setViewportSize(DESKTOP);
  await settle(page);
  if (problems.length > 0) throw new Error(`Layout:\n${problems.join('\n')}`);
}

/** Lets charts redraw after a resize and the page finish its requests. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // From the top, so the sticky header sits where a person sees it in a full-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
}
