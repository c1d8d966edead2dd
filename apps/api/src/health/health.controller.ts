import { Controller } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { DomainError } from '@lnk/shared/kernel';
import { isDatabaseUp } from '@lnk/shared/database';
import { ok, Public, Route, serializedOk } from '@lnk/shared/http';
import { HealthSchema } from './health.schemas';

/** Liveness never changes: its answer is serialised once. */
const LIVE = serializedOk(ok({ status: 'ok' }, 'Service is alive'));

@Controller('health')
@Public()
@SkipThrottle()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Route('GET', '', {
    operationId: 'getHealth',
    answers: HealthSchema,
    summary: 'Service health',
    description: 'Whether the service and its database answer; 503 when the database is unreachable.',
  })
  async health() {
    if (!(await isDatabaseUp(this.dataSource))) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'The database is unreachable', { status: 'error', database: 'down' });
    }
    return ok({ status: 'ok', database: 'up' }, 'Service is healthy');
  }

  /** Liveness: the process answers. A failing database does not make it worth restarting. */
  @Route('GET', 'live', {
    operationId: 'getLiveness',
    answers: HealthSchema,
    serialized: true,
    summary: 'Liveness probe',
    description: 'Answers while the process runs; a failing database does not fail it.',
  })
  live() {
    return LIVE;
  }

  /** Readiness: the service can do its work (the database answers); 503 takes it out of rotation. */
  @Route('GET', 'ready', {
    operationId: 'getReadiness',
    answers: HealthSchema,
    summary: 'Readiness probe',
    description: 'Answers 200 when the database answers, else 503 (take the instance out of rotation).',
  })
  ready() {
    return this.health();
  }
}
