import { Controller, Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { DomainError } from '@lnk/shared/kernel';
import { isDatabaseUp } from '@lnk/shared/database';
import { Public } from '../auth/access.decorators';
import { Responds } from '../openapi/responds.decorator';
import { HealthSchema } from './health.schemas';
import { ok } from '../envelope/envelope';

@Controller('health')
@Public()
@SkipThrottle()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @ApiOperation({ summary: 'Service health', description: 'Whether the service and its database answer; 503 when the database is unreachable.' })
  @Get()
  @Responds(HealthSchema)
  async health() {
    if (!(await isDatabaseUp(this.dataSource))) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'The database is unreachable', { status: 'error', database: 'down' });
    }
    return ok({ status: 'ok', database: 'up' }, 'Service is healthy');
  }

  /** Liveness: the process answers. A failing database does not make it worth restarting. */
  @ApiOperation({ summary: 'Liveness probe', description: 'Answers while the process runs; a failing database does not fail it.' })
  @Get('live')
  @Responds(HealthSchema)
  live() {
    return ok({ status: 'ok' }, 'Service is alive');
  }

  /** Readiness: the service can do its work (the database answers); 503 takes it out of rotation. */
  @ApiOperation({ summary: 'Readiness probe', description: 'Answers 200 when the database answers, else 503 (take the instance out of rotation).' })
  @Get('ready')
  @Responds(HealthSchema)
  ready() {
    return this.health();
  }
}
