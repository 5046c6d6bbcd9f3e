import { Injectable } from '@nestjs/common';
import { UserChanges } from '@app/shared';

/**
 * In-process news that a user's manual holdings changed (added, changed, deleted, imported): answers
 * cached from them are dropped at once in this process. Other instances keep theirs for their short
 * lifetime (PositionsResponseCache), as they do a price fetched elsewhere.
 */
@Injectable()
export class HoldingsChanges extends UserChanges {}
