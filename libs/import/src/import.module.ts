import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { TradesModule } from '@app/trades';
import { ImportBrokerageFiles } from './application/import-brokerage-files.service.js';
import { ImportStore } from './application/import-store.port.js';
import { UploadHistory } from './application/upload-history.port.js';
import { UploadController } from './http/upload.controller.js';
import { SqlImportStore } from './infrastructure/persistence/sql-import.store.js';
import { SqlUploadHistory } from './infrastructure/persistence/sql-upload-history.js';
import { ThreadedImports } from './infrastructure/thread/threaded-imports.js';

@Module({
  imports: [AuthModule, TradesModule],
  controllers: [UploadController],
  providers: [
    ImportBrokerageFiles,
    ThreadedImports,
    { provide: ImportStore, useClass: SqlImportStore },
    { provide: UploadHistory, useClass: SqlUploadHistory },
  ],
})
export class ImportModule {}
