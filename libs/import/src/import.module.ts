import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { TradesModule } from '@app/trades';
import { EmptyBrokerageAccount } from './application/empty-brokerage-account.service.js';
import { ImportBrokerageFiles } from './application/import-brokerage-files.service.js';
import { ImportStore } from './application/import-store.port.js';
import { UploadHistory } from './application/upload-history.port.js';
import { AccountDeletionController, ImportedAccountsController } from './http/imported-accounts.controller.js';
import { UploadController } from './http/upload.controller.js';
import { SqlImportStore } from './infrastructure/persistence/sql-import.store.js';
import { SqlUploadHistory } from './infrastructure/persistence/sql-upload-history.js';
import { ThreadedImports } from './infrastructure/thread/threaded-imports.js';

@Module({
  imports: [AuthModule, TradesModule],
  controllers: [UploadController, ImportedAccountsController, AccountDeletionController],
  providers: [
    ImportBrokerageFiles,
    EmptyBrokerageAccount,
    ThreadedImports,
    { provide: ImportStore, useClass: SqlImportStore },
    { provide: UploadHistory, useClass: SqlUploadHistory },
  ],
})
export class ImportModule {}
