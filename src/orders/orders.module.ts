import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { LineItemsModule } from '../line-items/line-items.module';
import { OrdersDataModule } from '../order-data/orders-data.module';
import { FulfillmentsModule } from '../fulfillments/fulfillments.module';
import { RefundsModule } from '../refunds/refunds.module';
import { OrderLookup } from './order-lookup';
import { OrderNote, OrderNoteSchema } from './order-note.schema';
import { OrderNotesRepository } from './order-notes.repository';
import { OrderTimelineService } from './order-timeline.service';
import { OrderTimelineV2Controller } from './order-timeline.v2.controller';
import { OrderViewsService } from './order-views.service';
import { OrderViewsV2Controller } from './order-views.v2.controller';
import { OrdersService } from './orders.service';
import { OrdersV1Controller } from './orders.v1.controller';
import { OrdersV2Controller } from './orders.v2.controller';
import { LineRowsTimelineSource } from './timeline/line-rows.source';
import { NotesTimelineSource } from './timeline/notes.source';
import { TrackingTimelineSource } from './timeline/tracking.source';
import { TIMELINE_SOURCES } from './timeline/timeline-entry';

@Module({
  imports: [
    OrdersDataModule,
    LineItemsModule,
    RefundsModule,
    FulfillmentsModule,
    MongooseModule.forFeature([{ name: OrderNote.name, schema: OrderNoteSchema }]),
  ],
  controllers: [OrdersV1Controller, OrdersV2Controller, OrderViewsV2Controller, OrderTimelineV2Controller],
  providers: [
    OrdersService,
    OrderLookup,
    OrderViewsService,
    OrderTimelineService,
    OrderNotesRepository,
    LineRowsTimelineSource,
    NotesTimelineSource,
    TrackingTimelineSource,
    // The timeline's entry sources, merged oldest first (timeline/timeline-entry.ts).
    {
      provide: TIMELINE_SOURCES,
      useFactory: (...sources: unknown[]) => sources,
      inject: [LineRowsTimelineSource, NotesTimelineSource, TrackingTimelineSource],
    },
  ],
})
export class OrdersModule {}
