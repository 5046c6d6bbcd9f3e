// A stand-in for the market-data provider on loopback, answering Finnhub's `GET /quote?symbol=` as the
// real API does ({c, d, dp, h, l, o, pc, t}), with a price derived from the symbol: the benchmark needs
// the service's quote cache filled, not real prices.
import { createServer } from 'node:http';

export async function startMarketDataStub() {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    const symbol = url.searchParams.get('symbol') ?? '';
    const seed = [...symbol].reduce((sum, char) => sum + char.charCodeAt(0), 0);
    const c = 10 + (seed % 490) + (seed % 100) / 100;
    const body = url.pathname.endsWith('/quote') ? { c, d: 0.5, dp: 0.35, h: c + 1, l: c - 1, o: c - 0.25, pc: c - 0.5, t: Math.floor(Date.now() / 1000) } : {};
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/api/v1`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * A Schwab transactions export holding `positions` open positions of `lots` lots each: every symbol is
 * bought `lots + 1` times and its first lot sold (FIFO), so lots and trades both exist.
 */
export function openPositionsExport({ positions = 1_000, lots = 3 } = {}) {
  const rows = [];
  for (let index = 0; index < positions; index += 1) {
    const symbol = `P${String(index).padStart(4, '0')}`;
    for (let lot = 0; lot <= lots; lot += 1) {
      const day = String(2 + lot).padStart(2, '0');
      const price = (20 + (index % 50) + lot / 4).toFixed(2);
      rows.push(`"03/${day}/2024","Buy","${symbol}","${symbol} HOLDINGS","10","$${price}","","-$${(Number(price) * 10).toFixed(2)}"`);
    }
    rows.push(`"04/01/2024","Sell","${symbol}","${symbol} HOLDINGS","10","$30.00","","$300.00"`);
  }
  return [
    '"Transactions  for account XXXX-5678 as of 06/29/2024 05:28:01 PM ET"',
    '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
    ...rows.reverse(),
  ].join('\n');
}
