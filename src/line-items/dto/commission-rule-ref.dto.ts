import { ApiProperty } from '@nestjs/swagger';

/** The commission rule a line's commission came from (DESIGN §13). */
export class CommissionRuleRefDto {
  @ApiProperty({ enum: ['product', 'productType'], example: 'product' })
  level!: 'product' | 'productType';
  @ApiProperty({ description: 'The rule id', maxLength: 24, example: '6740f1a2b3c4d5e6f7a8b9c0' })
  id!: string;
}
