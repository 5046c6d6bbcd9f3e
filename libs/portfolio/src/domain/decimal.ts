// Exact decimals of the shared kernel (a bigint count of 10^-10 units), re-exported so the portfolio's
// domain files name one local module.
export { Decimal } from '@app/shared/domain';
