import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config.js';
import { UploadBudget } from './http/multipart-upload.js';

/** Makes the validated configuration, and the memory budget every upload shares, injectable everywhere. */
@Global()
@Module({})
export class SharedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SharedModule,
      providers: [{ provide: AppConfig, useValue: config }, { provide: UploadBudget, useValue: new UploadBudget(config.uploadMaxBytes) }],
      exports: [AppConfig, UploadBudget],
    };
  }
}
