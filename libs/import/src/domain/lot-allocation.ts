import { Decimal } from '@app/shared/domain';

/** Broker lots and sale quantities agree when they differ by at most this many shares. */
export const LOT_QUANTITY_TOLERANCE = Decimal.parse('0.0001');

/** Enough for any real day of one symbol; past it the best allocation found so far is used. */
const SEARCH_BUDGET = 200_000;

/**
 * Sales and lots of one day the search takes on at most: it recurses a call or more per sale, and a
 * day of 2,500 sales with a lot each overflowed the call stack (the import failed). A larger day whose
 * lots do not simply follow its sales in file order gets a sharing of one pass (`inFileOrder`, or one
 * lot of the same quantity per sale), the sales it leaves unmet going FIFO.
 */
const SEARCHED_AT_MOST = 2_000;

/**
 * Shares a day's broker lots of one symbol out among that day's closing transactions so that each
 * transaction's quantity is met exactly (within the tolerance), meeting as many transactions as
 * possible, earlier ones first. Returns, per transaction, the indexes of its lots (in file order),
 * or null for a transaction the lots cannot meet (it goes FIFO; lots left over make no trade).
 */
export function allocateLots(closingQuantities: readonly Decimal[], lotQuantities: readonly Decimal[]): (number[] | null)[] {
  const sells = closingQuantities.map((quantity) => quantity.rawUnits);
  const lots = lotQuantities.map((quantity) => quantity.rawUnits);
  const tolerance = LOT_QUANTITY_TOLERANCE.rawUnits;
  if (sells.length === 1 && lots.length > 0) {
    const gap = sells[0] - lots.reduce((total, quantity) => total + quantity, 0n);
    if (gap <= tolerance && gap >= -tolerance) {
      return [lots.map((_, index) => index)];
    }
  }
  // The common case (each sale's lots listed after the previous sale's), in one pass: what the search
  // would find first, as it tries the unused lots in file order.
  const inOrder = inFileOrder(sells, lots, tolerance);
  if (inOrder.every((lotIndexes) => lotIndexes !== null)) return inOrder;
  if (sells.length + lots.length <= SEARCHED_AT_MOST) return searchedAllocation(sells, lots, tolerance);
  // Too large to search: of the two one-pass sharings, the one that meets more sales.
  const byQuantity = oneLotOfTheSameQuantity(sells, lots);
  return met(byQuantity) > met(inOrder) ? byQuantity : inOrder;
}

function met(allocation: readonly (number[] | null)[]): number {
  return allocation.filter((lotIndexes) => lotIndexes !== null).length;
}

/** Each sale, in order, given the first unused lot of exactly its quantity, or null (a broker that lists a sale's one lot elsewhere than after the previous sale's). */
function oneLotOfTheSameQuantity(sells: readonly bigint[], lots: readonly bigint[]): (number[] | null)[] {
  const unused = new Map<bigint, { indexes: number[]; next: number }>();
  lots.forEach((quantity, index) => {
    const same = unused.get(quantity);
    if (same === undefined) unused.set(quantity, { indexes: [index], next: 0 });
    else same.indexes.push(index);
  });
  return sells.map((quantity) => {
    const same = unused.get(quantity);
    if (same === undefined || same.next === same.indexes.length) return null;
    return [same.indexes[same.next++]];
  });
}

/** `allocateLots` by searching, without its one-pass cases (exported for its spec, which compares them). */
export function searchedAllocation(sells: readonly bigint[], lots: readonly bigint[], tolerance: bigint): (number[] | null)[] {
  const used = new Array<boolean>(lots.length).fill(false);
  const current: (number[] | null)[] = sells.map(() => null);
  let best: (number[] | null)[] = sells.map(() => null);
  let bestMet = 0;
  let budget = SEARCH_BUDGET;

  const assignFrom = (sellIndex: number, met: number): boolean => {
    if (met + (sells.length - sellIndex) <= bestMet || budget <= 0) {
      return false;
    }
    if (sellIndex === sells.length) {
      best = current.map((lotIndexes) => (lotIndexes ? [...lotIndexes] : null));
      bestMet = met;
      return met === sells.length;
    }
    const target = sells[sellIndex];
    const chosen: number[] = [];
    // Depth-first over subsets of the unused lots, in file order, that sum to the target.
    const chooseFrom = (lotIndex: number, total: bigint): boolean => {
      budget -= 1;
      if (budget <= 0) {
        return false;
      }
      const gap = target - total;
      if (chosen.length > 0 && gap <= tolerance && gap >= -tolerance) {
        current[sellIndex] = [...chosen];
        if (assignFrom(sellIndex + 1, met + 1)) {
          return true;
        }
        current[sellIndex] = null;
      }
      for (let index = lotIndex; index < lots.length; index += 1) {
        if (used[index] || lots[index] > gap + tolerance) {
          continue;
        }
        used[index] = true;
        chosen.push(index);
        const done = chooseFrom(index + 1, total + lots[index]);
        chosen.pop();
        used[index] = false;
        if (done) {
          return true;
        }
      }
      return false;
    };
    if (chooseFrom(0, 0n)) {
      return true;
    }
    return assignFrom(sellIndex + 1, met);
  };

  assignFrom(0, 0);
  return best;
}

/**
 * Each sale, in order, given the unused lots that follow the ones already given, in file order, up to
 * the first run that adds up to it (within the tolerance); null when the next lots overshoot or run out
 * (those lots stay for the next sale).
 */
function inFileOrder(sells: readonly bigint[], lots: readonly bigint[], tolerance: bigint): (number[] | null)[] {
  let next = 0;
  return sells.map((target) => {
    let total = 0n;
    for (let end = next; end < lots.length; end += 1) {
      total += lots[end];
      const gap = target - total;
      if (gap < -tolerance) return null;
      if (gap <= tolerance) {
        const chosen = Array.from({ length: end + 1 - next }, (_, offset) => next + offset);
        next = end + 1;
        return chosen;
      }
    }
    return null;
  });
}
