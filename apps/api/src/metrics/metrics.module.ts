import { Global, Module } from '@nestjs/common';
import { ServiceMetrics } from '@lnk/shared/metrics';
import { AppMetrics } from './app-metrics';

/** The API's metrics; the composition (libs/composition) counts into them as the ServiceMetrics every app has. */
@Global()
@Module({ providers: [AppMetrics, { provide: ServiceMetrics, useExisting: AppMetrics }], exports: [AppMetrics, ServiceMetrics] })
export class MetricsModule {}
