import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public, timestampWithMicroseconds } from '@app/shared';
import { HealthChecks, SERVICE_NAME } from '../health-checks.js';

/** Public probes for operators and load balancers (../shared/spec/interface.md "Health"). */
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly checks: HealthChecks) {}

  @Get()
  health() {
    return { status: 'healthy', timestamp: timestampWithMicroseconds(), service: SERVICE_NAME };
  }

  @Get('detailed')
  async detailed(@Res({ passthrough: true }) reply: FastifyReply) {
    const { healthy, checks } = await this.checks.detailed();
    reply.status(healthy ? 200 : 503);
    return { status: healthy ? 'healthy' : 'degraded', timestamp: timestampWithMicroseconds(), service: SERVICE_NAME, checks };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { ready, reason } = await this.checks.readiness();
    reply.status(ready ? 200 : 503);
    return ready
      ? { status: 'ready', timestamp: timestampWithMicroseconds() }
      : { status: 'not ready', timestamp: timestampWithMicroseconds(), reason };
  }

  @Get('live')
  live() {
    return { status: 'alive', timestamp: timestampWithMicroseconds() };
  }
}
