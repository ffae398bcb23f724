import { ApiProperty } from '@nestjs/swagger';
import { JOB_STATES, JOB_TYPES, type JobState, type JobType } from '../job.schema';

export class JobDto {
  @ApiProperty({ example: '6743b1c2d3e4f5a6b7c8d9e0' })
  id!: string;
  @ApiProperty({ enum: JOB_TYPES, example: 'recalculation' })
  type!: JobType;
  @ApiProperty({
    enum: JOB_STATES,
    description: 'queued → running → completed, or failed when some items could not be processed',
    example: 'completed',
  })
  state!: JobState;
  @ApiProperty({ description: 'Items to process (line items for a recalculation)', example: 240 })
  total!: number;
  @ApiProperty({
    description: 'Items processed (frozen line items count: they are left as they are)',
    example: 240,
  })
  done!: number;
  @ApiProperty({ description: 'Items that could not be processed', example: 0 })
  failed!: number;
  @ApiProperty({ type: [String], description: 'Why items failed, one entry per failed part', example: [] })
  errors!: string[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-21T10:00:02.310Z' })
  finishedAt!: string | null;
}
