/**
 * The specs' seeded generator (mulberry32), so a failing random case can be replayed: the one the
 * benchmark's histories are generated with (numbers in [0, 1), the same sequence for a seed).
 */
export { random } from '../../bench/support/trading-history.mjs';
