import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { ImportBrokerageFiles } from './application/import-brokerage-files.service.js';
import { ImportStore } from './application/import-store.port.js';
import { UploadHistory } from './application/upload-history.port.js';
import { UploadController } from './http/upload.controller.js';
import { TypeOrmImportStore } from './infrastructure/persistence/typeorm-import.store.js';
import { TypeOrmUploadHistory } from './infrastructure/persistence/typeorm-upload-history.js';

@Module({
  imports: [AuthModule],
  controllers: [UploadController],
  providers: [
    ImportBrokerageFiles,
    { provide: ImportStore, useClass: TypeOrmImportStore },
    { provide: UploadHistory, useClass: TypeOrmUploadHistory },
  ],
})
export class ImportModule {}
