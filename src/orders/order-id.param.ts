import { ApiParam } from '@nestjs/swagger';

/** The `{id}` of the vendor surface's order paths: our order `_id` or the platform's numeric order id. */
export const OrderIdParam = () =>
  ApiParam({
    name: 'id',
    description:
      'The order’s `_id` (24 hexadecimal characters) or the store platform’s numeric order id; anything ' +
      'else, another shop’s order, or (vendor token) an order without a line item of the vendor answers 404',
    example: '5549201834154',
    schema: { type: 'string', pattern: '^([0-9a-fA-F]{24}|[1-9][0-9]{0,15})$', maxLength: 24 },
  });
