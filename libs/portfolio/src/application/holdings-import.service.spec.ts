import { UnitOfWork } from '@app/persistence';
import { Decimal } from '@app/shared/domain';
import { HoldingsFileError } from '../domain/portfolio.errors.js';
import { InMemoryHoldings } from '../testing/in-memory-holdings.js';
import { HoldingsImportService } from './holdings-import.service.js';

class ImmediateUnitOfWork extends UnitOfWork {
  runs = 0;
  run<T>(work: () => Promise<T>): Promise<T> {
    this.runs += 1;
    return work();
  }

  afterCommit(announce: () => void): void {
    announce();
  }
}

describe('HoldingsImportService', () => {
  let repository: InMemoryHoldings;
  let unitOfWork: ImmediateUnitOfWork;
  let service: HoldingsImportService;

  beforeEach(() => {
    repository = new InMemoryHoldings();
    unitOfWork = new ImmediateUnitOfWork();
    service = new HoldingsImportService(repository, unitOfWork);
  });

  it('imports new symbols, updates existing ones, and reports bad rows in file order', async () => {
    await repository.create(7, { symbol: 'AAPL', holdingType: 'stock', shares: Decimal.of('1'), averageCost: Decimal.of('100'), notes: 'keep', purchaseDate: null });
    const result = await service.import(
      7,
      ['symbol,shares,cost_basis,security_type', 'AAPL,12,,', 'MSFT,x,1,STOCK', 'VTI,4,800,ETF', 'NEWCO,5,,STOCK', 'QQQ,2,,ETF'].join('\n'),
    );
    expect(result).toEqual({
      imported: 1,
      updated: 1,
      errors: [
        "Row 3: invalid shares value 'x'",
        'Row 5: average_cost or cost_basis is required for a new holding',
        'Row 6: average_cost or cost_basis is required for a new holding',
      ],
    });
    const holdings = await repository.findByUser(7);
    expect(holdings.map((h) => [h.symbol, h.shares.toString(), h.averageCost.toString(), h.holdingType, h.notes])).toEqual([
      ['AAPL', '12', '100', 'stock', 'keep'],
      ['VTI', '4', '200', 'etf', ''],
    ]);
    expect(unitOfWork.runs).toBe(1);
  });

  it('a file that cannot be read at all is a 400-type error', async () => {
    await expect(service.import(7, 'name,qty\nA,1\n')).rejects.toThrow(HoldingsFileError);
  });
});
