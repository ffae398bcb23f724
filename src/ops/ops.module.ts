import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { HealthModule } from '../health/health.module';
import { IngestionModule } from '../ingestion/ingestion.module';
import { MetricsService } from './metrics.service';
import { OpsServer } from './ops-server';

/** Operations: Prometheus metrics and health on the ops listener (METRICS_PORT), in the API and the worker. */
@Module({
  imports: [HealthModule, IngestionModule, EventsModule],
  providers: [MetricsService, OpsServer],
  exports: [MetricsService, OpsServer],
})
export class OpsModule {}
