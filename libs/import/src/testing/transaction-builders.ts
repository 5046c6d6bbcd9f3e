import { Decimal } from '@app/shared/domain';
import { classifyAction, type BrokerTransaction } from '../domain/broker-transaction.js';
import type { RealizedLot } from '../domain/realized-lot.js';

/**
 * Builds rows for matcher tests without a CSV. Add them as an export lists them (newest first): each
 * row gets the next line number, starting at 2 below an imaginary header.
 */
export class TransactionsBuilder {
  private readonly rows: BrokerTransaction[] = [];
  private nextLine = 2;

  add(date: string, action: string, symbol: string, quantity?: string, price?: string, amount?: string, fees?: string): this {
    const line = this.nextLine;
    this.nextLine += 1;
    this.rows.push({
      line,
      date,
      asOfDate: null,
      action,
      kind: classifyAction(action),
      symbol,
      description: `${symbol} INC`,
      quantity: quantity === undefined ? null : Decimal.parse(quantity),
      price: price === undefined ? null : Decimal.parse(price),
      fees: fees === undefined ? null : Decimal.parse(fees),
      amount: amount === undefined ? null : Decimal.parse(amount),
      cellsJson: JSON.stringify([date, action, symbol, `${symbol} INC`, quantity ?? '', price ?? '', fees ?? '', amount ?? '']),
    });
    return this;
  }

  build(): BrokerTransaction[] {
    return [...this.rows];
  }
}

let lotLine = 1;

/** A broker lot with consistent figures: cost and proceeds given in total. */
export function brokerLot(
  symbol: string,
  openedDate: string,
  closedDate: string,
  quantity: string,
  costBasis: string,
  proceeds: string,
  extra: Partial<RealizedLot> = {},
): RealizedLot {
  const cost = Decimal.parse(costBasis);
  const income = Decimal.parse(proceeds);
  const shares = Decimal.parse(quantity);
  lotLine += 1;
  return {
    line: lotLine,
    symbol,
    name: `${symbol} INC`,
    closedDate,
    openedDate,
    quantity: shares,
    proceedsPerShare: income.div(shares).round(4),
    costPerShare: cost.div(shares).round(4),
    proceeds: income,
    costBasis: cost,
    gainLoss: income.sub(cost),
    gainLossPercent: null,
    term: 'Short Term',
    washSale: false,
    disallowedLoss: null,
    cellsJson: '[]',
    ...extra,
  };
}
