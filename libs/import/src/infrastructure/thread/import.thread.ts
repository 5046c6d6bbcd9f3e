// The program of an import's worker thread (`ThreadedImports`): its log lines go to the main thread's logger.
import 'reflect-metadata';
import { parentPort } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { runImportsFrom, ThreadLogger } from './import-thread.js';

if (parentPort === null) throw new Error('import.thread runs as a worker thread');
Logger.overrideLogger(new ThreadLogger(runImportsFrom(parentPort)));
