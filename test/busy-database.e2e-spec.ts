import { generateTradingHistory } from '../bench/support/trading-history.mjs';
import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';

type Session = Awaited<ReturnType<typeof signIn>>;

const READERS = 64;
const REPORTS = ['/api/months', '/api/month/2024-06', '/api/symbols/summary', '/api/timeframe-data?all=true', '/api/calendar-data?year=2024&month=6', '/api/day-details?date=2024-06-28'];

/**
 * One trader's large import must not stall everyone else (issue 14). On the embedded database the
 * engine is one session, so another trader's reports queue behind the import's transaction: they
 * must wait and then answer, never fail, and the health probes must not call a busy database
 * unavailable. Reports another trader has already seen come from the report cache and answer at once;
 * anything else waits for the session. A second import of the same account waits for the first.
 */
describe('while a large import runs', () => {
  let service: RunningService;
  let importer: Session;
  let reader: Session;
  const large = generateTradingHistory({ trades: 50_000, dividends: 2_000, symbols: 100, brokerLotShare: 0.2, seed: 9 });

  const withAccount = async (session: Session, account: string) => {
    expect((await session.json('PUT', '/auth/profile', { brokerage_account: account })).status).toBe(200);
  };
  const upload = async (session: Session, files: Parameters<typeof uploadForm>[0]) => {
    const response = await session.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(files) });
    return ndjson(await response.text()).pop();
  };

  beforeAll(async () => {
    service = await startService({ env: { AUTHORIZED_USERS: 'importer@example.com,reader@example.com' } });
    importer = await signIn(service, 'importer@example.com');
    reader = await signIn(service, 'reader@example.com');
    await withAccount(importer, 'XXXX-1111');
    await withAccount(reader, 'XXXX-2222');
    expect(await upload(reader, exampleFiles())).toMatchObject({ type: 'success' });
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
  });

  it(`answers ${READERS} concurrent readers of another account and every readiness probe`, async () => {
    for (const path of REPORTS) expect((await reader.fetch(path)).status).toBe(200);
    let importing = true;
    const imported = upload(importer, {
      transaction_history_file: { name: 'transactions.csv', content: large.transactions },
      realized_gains_file: { name: 'realized_gains.csv', content: large.gains },
    }).finally(() => (importing = false));

    const failures: string[] = [];
    const latencies: number[] = [];
    let rounds = 0;
    const readerLoop = async (index: number) => {
      for (let turn = 0; importing || turn === 0; turn += 1) {
        const path = REPORTS[(index + turn) % REPORTS.length];
        const started = Date.now();
        const response = await reader.fetch(path);
        await response.arrayBuffer();
        latencies.push(Date.now() - started);
        if (response.status !== 200) failures.push(`${path}: ${response.status}`);
      }
    };
    const probeLoop = async () => {
      while (importing) {
        rounds += 1;
        const response = await fetch(`${service.url}/health/ready`);
        if (response.status !== 200) failures.push(`/health/ready: ${response.status} ${await response.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await Promise.all([...Array.from({ length: READERS }, (_, index) => readerLoop(index)), probeLoop(), imported]);

    expect(await imported).toMatchObject({ type: 'success' });
    expect(failures).toEqual([]);
    expect(rounds).toBeGreaterThan(0);
    latencies.sort((a, b) => a - b);
    process.stdout.write(
      `busy database: ${latencies.length} report requests during the import, p50 ${latencies[Math.floor(latencies.length * 0.5)]} ms, ` +
        `p99 ${latencies[Math.floor(latencies.length * 0.99)]} ms, max ${latencies[latencies.length - 1]} ms\n`,
    );
  }, 300_000);

  it('runs a second import of the same account after the first, neither failing', async () => {
    const [first, second] = await Promise.all([upload(importer, exampleFiles()), upload(importer, exampleFiles())]);
    expect([first.type, second.type]).toEqual(['success', 'success']);
    // Whichever ran second found the rows stored already.
    expect([first.stats.transactions_inserted, second.stats.transactions_inserted].sort((a, b) => a - b)).toEqual([0, 75]);
  });
});
