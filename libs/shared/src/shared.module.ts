import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config.js';

/** Makes the validated configuration injectable everywhere. */
@Global()
@Module({})
export class SharedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: SharedModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
