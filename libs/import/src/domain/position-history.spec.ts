import { Decimal } from '@app/shared/domain';
import { PositionHistory } from './position-history.js';

describe('PositionHistory', () => {
  const shares = (text: string) => Decimal.parse(text);
  const texts = (history: PositionHistory) => history.entries().map((change) => `${change.symbol} ${change.date} ${change.shares.toString()}`);

  it('keeps each day the last shares recorded on it, exactly, beyond a number’s exact units too', () => {
    const history = new PositionHistory();
    const huge = '123456789012345678901234.5';
    history.record('MSFT', '2024-01-02', shares('10'));
    history.record('AAPL', '2024-01-02', shares('0.0000000001'));
    history.record('AAPL', '2024-01-02', shares(huge)); // the same day: replaces
    history.record('AAPL', '2024-01-03', shares('-5.25'));
    history.record('AAPL', '2024-01-04', shares(huge));
    history.record('AAPL', '2024-01-04', shares('7')); // a large figure replaced by one in units
    history.record('MSFT', '2024-01-05', shares('0'));

    expect(texts(history)).toEqual([`AAPL 2024-01-02 ${huge}`, 'AAPL 2024-01-03 -5.25', 'AAPL 2024-01-04 7', 'MSFT 2024-01-02 10', 'MSFT 2024-01-05 0']);
    expect(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-06', undefined].map((date) => history.sharesAt('AAPL', date).toString())).toEqual(['0', huge, '-5.25', '7', '7']);
    expect(history.sharesAt('NVDA').toString()).toBe('0');
    expect(history.openPositionsAt('2024-01-04').map(({ symbol, shares: held }) => `${symbol} ${held.toString()}`)).toEqual(['AAPL 7', 'MSFT 10']);
  });
});
