import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateTradingHistory } from '../bench/support/trading-history.mjs';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { serverDatabaseUrl, withClient } from './support/test-database.js';
import { exampleFiles, expected, ndjson, uploadForm, uploadWithFaultAtRowWrite } from './support/uploads.js';

/** The executions template's example: account XY000001, which the file carries (test/fixtures/broker-examples.expected.json). */
const TEMPLATE = readFileSync(path.resolve(process.cwd(), 'test/fixtures/executions-template/executions.csv'), 'utf8');

/**
 * `DELETE /api/import/accounts/{account}` (docs/api.md "Removing an account's imports"): what the
 * imports put into one account goes, the user's other account and every report of it stay as they
 * were, the journal of the removed trades waits as orphans, and the same files imported again give the
 * same figures with the journal back on its trades. `DELETE /api/accounts/{account}` deletes an account
 * other than the default, its journal with it.
 */
describe('removing what the imports put into an account', () => {
  let service: RunningService;
  let trader: SignedIn;
  let stranger: SignedIn;
  const uploadSchwab = async () => {
    const lines = ndjson(await (await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) })).text());
    return lines.at(-1);
  };
  const importTemplate = async () => {
    const form = new FormData();
    form.append('files', new Blob([TEMPLATE]), 'executions.csv');
    return ndjson(await (await trader.fetch('/api/import', { method: 'POST', headers: { origin: service.url }, body: form })).text()).at(-1);
  };
  /** What the reports show, of all accounts and of each. */
  const figures = async () => {
    const read = async (url: string) => (await trader.json('GET', url)).body;
    const scoped = async (account: string) => ({
      months: (await read(`/api/months?account=${account}`)).months,
      trades: (await read(`/api/trades?limit=500&order=asc&account=${account}`)).trades.map((trade: any) => [trade.id, trade.total_profit_loss, trade.tags, trade.has_note]),
      positions: (await read(`/api/positions?account=${account}`)).positions.map((position: any) => [position.symbol, position.shares, position.cost_basis]),
    });
    return {
      months: (await read('/api/months')).months,
      symbols: await read('/api/symbols/summary'),
      statistics: await read('/api/statistics'),
      schwab: await scoped('XXXX-1234'),
      template: await scoped('XY000001'),
    };
  };

  beforeAll(async () => {
    service = await startService({ env: { AUTHORIZED_USERS: 'trader@example.com,stranger@example.com' } });
    trader = await signIn(service, 'trader@example.com');
    stranger = await signIn(service, 'stranger@example.com');
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('removes one account’s imports, keeps the other’s, and the same files give everything back', async () => {
    expect(await uploadSchwab()).toMatchObject({ type: 'success', stats: { transactions_inserted: 75, realized_gains_lots: 24 } });
    expect(await importTemplate()).toMatchObject({ type: 'success', stats: { transactions_inserted: 11 } });
    // A tagged trade with a note in the account about to be emptied.
    const schwabTrades = (await trader.json('GET', '/api/trades?limit=500&order=asc&account=XXXX-1234')).body.trades;
    const annotated = schwabTrades[3];
    expect((await trader.json('PUT', `/api/trades/${annotated.id}/tags`, { tags: ['Breakout'] })).status).toBe(200);
    expect((await trader.json('PUT', `/api/trades/${annotated.id}/note`, { note: 'Held too long.' })).status).toBe(200);
    const before = await figures();
    expect(before.schwab.months.map((month: any) => [month.month, month.total_return_with_dividends])).toEqual(
      expected().months.map((month: any) => [month.month, month.total_return_with_dividends]),
    );

    const removed = await trader.json('DELETE', '/api/import/accounts/XXXX-1234');
    expect(removed).toEqual({
      status: 200,
      body: {
        success: true,
        account: 'XXXX-1234',
        transactions_removed: 75,
        lots_removed: 24,
        months_updated: before.schwab.months.length,
        message: 'Removed what the imports put into account XXXX-1234: 75 transactions and 24 lots',
      },
    });
    const emptied = await figures();
    // The emptied account shows nothing; the other account's reports, and the whole user's, are the other account's alone.
    expect(emptied.schwab).toEqual({ months: [], trades: [], positions: [] });
    expect(emptied.template).toEqual(before.template);
    expect(emptied.months).toEqual(before.template.months);
    expect((await trader.json('GET', '/api/accounts')).body.accounts.map((account: any) => account.account_number)).toEqual(['XXXX-1234', 'XY000001']);
    // The removed trade's journal waits as an orphan.
    const orphans = (await trader.json('GET', '/api/journal/orphans')).body;
    expect(orphans.orphans.map((orphan: any) => [orphan.id, orphan.tags, orphan.note])).toEqual([[annotated.id, ['Breakout'], 'Held too long.']]);
    expect((await trader.json('GET', '/api/tags')).body.tags.map((tag: any) => [tag.name, tag.total_trades])).toEqual([['Breakout', 0]]);
    // Emptying an empty account removes nothing.
    expect((await trader.json('DELETE', '/api/import/accounts/XXXX-1234')).body).toMatchObject({ transactions_removed: 0, lots_removed: 0, months_updated: 0 });

    // The same files again: every row is read and stored again (the days they read were forgotten with them), the figures and the journal are back.
    expect(await uploadSchwab()).toMatchObject({ type: 'success', stats: { transactions_inserted: 75, realized_gains_lots: 24 } });
    expect(await figures()).toEqual(before);
    expect((await trader.json('GET', '/api/journal/orphans')).body.count).toBe(0);
  });

  it('waits for an import of the account that is running, then removes all of it', async () => {
    const history = generateTradingHistory({ trades: 5_000, dividends: 100, symbols: 20, brokerLotShare: 0.2, seed: 7 });
    expect((await stranger.json('PUT', '/auth/profile', { brokerage_account: 'S-1' })).status).toBe(200);
    // Asked for while the import writes its rows (60%): the removal takes the account's lock after the import's commit.
    const { text, acted } = await uploadWithFaultAtRowWrite(stranger, service.url, history, () => stranger.json('DELETE', '/api/import/accounts/S-1'));
    const imported = ndjson(text).at(-1);
    expect(imported).toMatchObject({ type: 'success' });
    expect(acted).toMatchObject({
      status: 200,
      body: { transactions_removed: imported.stats.transactions_inserted, lots_removed: imported.stats.realized_gains_lots },
    });
    expect((await stranger.json('GET', '/api/months')).body.months).toEqual([]);
    expect((await stranger.json('GET', '/api/trades?limit=5')).body.trades).toEqual([]);
  });

  it('answers 404 for an account the user does not have, and leaves the owner’s alone', async () => {
    for (const [session, account] of [
      [trader, 'NOPE-1'],
      [stranger, 'XXXX-1234'],
      [stranger, 'XY000001'],
      [trader, 'S-1'],
    ] as const) {
      expect(await session.json('DELETE', `/api/import/accounts/${encodeURIComponent(account)}`)).toEqual({
        status: 404,
        body: { success: false, error: `You have no brokerage account numbered "${account}"` },
      });
    }
    expect((await trader.json('GET', '/api/trades?limit=500&account=XY000001')).body.trades.length).toBeGreaterThan(0);
    expect((await trader.json('GET', '/api/trades?limit=500&account=XXXX-1234')).body.trades.length).toBeGreaterThan(0);
    const anonymous = await fetch(`${service.url}/api/import/accounts/XXXX-1234`, { method: 'DELETE', headers: { origin: service.url } });
    expect(anonymous.status).toBe(401);
  });

  it('deletes an account other than the default with what it holds and its trades’ journal; refuses the default', async () => {
    const read = async (url: string) => (await trader.json('GET', url)).body;
    const templateMonths = (await read('/api/months?account=XY000001')).months;
    const schwab = { months: (await read('/api/months?account=XXXX-1234')).months, symbols: await read('/api/symbols/summary?account=XXXX-1234') };
    const tagged = (await read('/api/trades?limit=500&order=asc&account=XY000001')).trades[0];
    expect((await trader.json('PUT', `/api/trades/${tagged.id}/tags`, { tags: ['Scalp'] })).status).toBe(200);

    expect(await trader.json('DELETE', '/api/accounts/XXXX-1234')).toEqual({
      status: 409,
      body: {
        success: false,
        error: "XXXX-1234 is your default account (the profile's) and cannot be deleted: remove its imports instead, or change its number in the profile",
      },
    });
    for (const [session, account] of [
      [trader, 'NOPE-1'],
      [stranger, 'XY000001'],
    ] as const) {
      expect(await session.json('DELETE', `/api/accounts/${account}`)).toEqual({ status: 404, body: { success: false, error: `You have no brokerage account numbered "${account}"` } });
    }

    expect(await trader.json('DELETE', '/api/accounts/XY000001')).toEqual({
      status: 200,
      body: {
        success: true,
        account: 'XY000001',
        transactions_removed: 11,
        lots_removed: 0,
        months_updated: templateMonths.length,
        message: 'Deleted account XY000001 with 11 transactions and 0 lots',
      },
    });
    // Gone: not listed, not a report's account; the user's reports are the default account's alone.
    expect((await read('/api/accounts')).accounts.map((account: any) => account.account_number)).toEqual(['XXXX-1234']);
    expect(await trader.json('GET', '/api/months?account=XY000001')).toEqual({ status: 404, body: { success: false, error: 'You have no brokerage account numbered "XY000001"' } });
    expect((await read('/api/months')).months).toEqual(schwab.months);
    expect(await read('/api/symbols/summary')).toEqual(schwab.symbols);
    // Its trades' journal went with it: no orphan waits, the tag names no trade.
    expect((await read('/api/journal/orphans')).count).toBe(0);
    expect((await read('/api/tags')).tags.map((tag: any) => [tag.name, tag.total_trades])).toEqual([
      ['Breakout', 1],
      ['Scalp', 0],
    ]);

    // The file imported again makes the account anew (its trades' ids are the new account's), with its figures and no tag.
    expect(await importTemplate()).toMatchObject({ type: 'success', stats: { transactions_inserted: 11 } });
    expect((await read('/api/months?account=XY000001')).months).toEqual(templateMonths);
    const again = (await read('/api/trades?limit=500&order=asc&account=XY000001')).trades;
    expect(again[0]).toMatchObject({ symbol: tagged.symbol, total_profit_loss: tagged.total_profit_loss, tags: [] });
    expect(again.filter((trade: any) => trade.tags.length > 0)).toEqual([]);
    // Deleted twice at once: one deletes it, the other (waiting for its lock, or asking after) finds none.
    const twice = await Promise.all([trader.json('DELETE', '/api/accounts/XY000001'), trader.json('DELETE', '/api/accounts/XY000001')]);
    expect(twice.map((answer) => answer.status).sort()).toEqual([200, 404]);
    expect(twice.find((answer) => answer.status === 404)?.body).toEqual({ success: false, error: 'You have no brokerage account numbered "XY000001"' });
  });

  // The account's import lock is held from outside so that the deletion, then the import, are seen
  // waiting for it in pg_locks; the embedded engine is one session the service alone talks to.
  (serverDatabaseUrl() ? it : it.skip)('fails an import that waited for an account deleted meanwhile, as a whole, and says why', async () => {
    expect(await importTemplate()).toMatchObject({ type: 'success', stats: { transactions_inserted: 11 } });
    const { accounts } = (await trader.json('GET', '/api/accounts')).body;
    const accountId = accounts.find((account: any) => account.account_number === 'XY000001').account_id;
    const { deleted, imported } = await withClient(service.databaseUrl!, async (client) => {
      const waiting = async (count: number) => {
        for (let tries = 0; tries < 3_000; tries += 1) {
          const { rows } = await client.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 4711 AND objid = $1",
            [accountId],
          );
          if (rows[0].n === count) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        throw new Error(`${count} requests never waited for the account's lock`);
      };
      await client.query('BEGIN');
      // IMPORT_LOCK_NAMESPACE of libs/import's SqlImportStore, and the account.
      await client.query('SELECT pg_advisory_xact_lock(4711, $1)', [accountId]);
      const deleted = trader.json('DELETE', '/api/accounts/XY000001');
      await waiting(1);
      const imported = importTemplate();
      await waiting(2);
      await client.query('COMMIT');
      return { deleted: await deleted, imported: await imported };
    });
    expect(deleted).toMatchObject({ status: 200, body: { message: 'Deleted account XY000001 with 11 transactions and 0 lots' } });
    expect(imported).toMatchObject({ type: 'error', message: 'The brokerage account was removed while the files were being imported; nothing was imported' });
    // Nothing of the import stayed (no account, no trades); the history has it as failed, with the reason.
    expect((await trader.json('GET', '/api/accounts')).body.accounts.map((account: any) => account.account_number)).toEqual(['XXXX-1234']);
    expect((await trader.json('GET', '/api/trades?limit=500&account=XY000001')).status).toBe(404);
    expect((await trader.json('GET', '/api/upload-history')).body.history[0]).toMatchObject({
      status: 'failed',
      brokerage_account: 'XY000001',
      transactions_inserted: 0,
      error: 'The brokerage account was removed while the files were being imported; nothing was imported',
    });
    // The file imported once more makes the account anew.
    expect(await importTemplate()).toMatchObject({ type: 'success', stats: { transactions_inserted: 11 } });
  });
});
