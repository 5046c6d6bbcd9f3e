import { Injectable } from '@nestjs/common';
import { UserChanges } from '@app/shared';

/**
 * In-process news of committed report data, from the ledger to the version sources: the embedded
 * database lives inside this process, so every change to it passes through here; for a server, the
 * news holds this process's copy of the version until the database's own notification arrives.
 * One per application (a provider of the trades module); announced after the import's commit.
 */
@Injectable()
export class ReportDataChanges extends UserChanges {}
