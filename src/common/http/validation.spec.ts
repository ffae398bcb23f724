import { Type } from 'class-transformer';
import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { ValidationError } from '../errors';
import { createValidationPipe } from './validation';

class Item {
  @IsInt()
  @Min(1)
  orderId!: number;
}
class Body {
  @IsString()
  name!: string;
  @ValidateNested({ each: true })
  @Type(() => Item)
  items!: Item[];
}

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  const run = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Body });

  it('returns the DTO when valid', async () => {
    await expect(run({ name: 'a', items: [{ orderId: 2 }] })).resolves.toBeInstanceOf(Body);
  });

  it('reports nested paths and unknown properties as a 422 ValidationError', async () => {
    const err = await run({ name: 3, items: [{ orderId: 0 }], extra: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const details = (err as ValidationError).details as { fields: Record<string, string[]> };
    expect(Object.keys(details.fields).sort()).toEqual(['extra', 'items.0.orderId', 'name']);
    expect(details.fields['items.0.orderId']).toEqual(['items.0.orderId must not be less than 1']);
    expect((err as ValidationError).message).toContain('property extra should not exist');
  });
});
