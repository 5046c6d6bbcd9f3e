import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, timestampWithMicroseconds } from '@app/shared';
import { ApiJson } from '@app/shared/openapi';
import { HealthChecks, SERVICE_NAME } from '../health-checks.js';

/** Public probes for operators and load balancers (../shared/spec/interface.md "Health"). */
@Public()
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly checks: HealthChecks) {}

  @Get()
  @ApiOperation({ summary: 'The service answers (public)' })
  @ApiJson('Health', 'Healthy.')
  health() {
    return { status: 'healthy', timestamp: timestampWithMicroseconds(), service: SERVICE_NAME };
  }

  @Get('detailed')
  @ApiOperation({ summary: 'Database, settings and disk space checks (public)' })
  @ApiJson('DetailedHealth', 'Every check healthy.')
  @ApiJson('DetailedHealth', 'A check is unhealthy: `status` is `degraded`.', 503)
  async detailed(@Res({ passthrough: true }) reply: FastifyReply) {
    const { healthy, checks } = await this.checks.detailed();
    reply.status(healthy ? 200 : 503);
    return { status: healthy ? 'healthy' : 'degraded', timestamp: timestampWithMicroseconds(), service: SERVICE_NAME, checks };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: route traffic on this one (public)' })
  @ApiJson('Readiness', 'Ready.')
  @ApiJson('Readiness', 'Not ready: starting, the database unavailable, or shutting down.', 503)
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { ready, reason } = await this.checks.readiness();
    reply.status(ready ? 200 : 503);
    return ready
      ? { status: 'ready', timestamp: timestampWithMicroseconds() }
      : { status: 'not ready', timestamp: timestampWithMicroseconds(), reason };
  }

  @Get('live')
  @ApiOperation({ summary: 'Liveness (public)' })
  @ApiJson('Liveness', 'The process runs.')
  live() {
    return { status: 'alive', timestamp: timestampWithMicroseconds() };
  }
}
