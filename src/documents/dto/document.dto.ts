import { ApiProperty } from '@nestjs/swagger';
import { LegalAddressResponseDto } from '../../common/legal/legal-address.dto';
import { OBJECT_ID_PATTERN } from '../../common/http/params';
import { PageInfoDto } from '../../common/pagination';
import { DOCUMENT_TYPES, type DocumentType } from '../document.types';

const MONEY = { pattern: '^-?\\d+\\.\\d{2}$' } as const;
const ID = { pattern: OBJECT_ID_PATTERN } as const;
const NUMBER = { pattern: '^.{1,10}\\d{4}-\\d{6,}$' } as const;

export class DocumentPartyDto {
  @ApiProperty({ example: 'Example Marketplace Ltd' })
  legalName!: string;
  @ApiProperty({ type: LegalAddressResponseDto, nullable: true })
  address!: LegalAddressResponseDto | null;
  @ApiProperty({ type: String, nullable: true, example: 'GB123456789' })
  vatId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Printed only on a self-billed invoice (both parties); null on every other kind',
    example: null,
  })
  taxId!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  businessRegistrationNumber!: string | null;
}

export class DocumentLineDto {
  @ApiProperty({
    description: "The platform's order id ('' on a payout statement's adjustments line)",
    example: '5001',
  })
  orderId!: string;
  @ApiProperty({ type: String, nullable: true, example: '#1001' })
  orderName!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-03-01T10:00:00.000Z' })
  orderDate!: string;
  @ApiProperty({ example: 'Commission on order #1001' })
  description!: string;
  @ApiProperty({
    ...MONEY,
    description:
      'Commission invoice / credit note: Σ commission of the order’s rows; self-billed invoice: Σ salesAfterDiscount ' +
      '(the taxable amount); payout statement: what the batch paid of them. Negative on a credit note.',
    example: '10.00',
  })
  net!: string;
  @ApiProperty({
    ...MONEY,
    description:
      'Σ taxOnCommissions (commission kinds), Σ tax (self-billed invoice), 0.00 on a payout statement',
    example: '2.00',
  })
  tax!: string;
  @ApiProperty({ ...MONEY, description: 'net + tax', example: '12.00' })
  total!: string;
}

export class DocumentTotalsDto {
  @ApiProperty({ ...MONEY, description: 'Σ lines’ net, to the cent', example: '10.00' })
  net!: string;
  @ApiProperty({ ...MONEY, description: 'Σ lines’ tax', example: '2.00' })
  tax!: string;
  @ApiProperty({ ...MONEY, description: 'Σ lines’ total', example: '12.00' })
  total!: string;
}

export class DocumentPeriodDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-03-01T10:00:00.000Z' })
  from!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-03-31T23:59:59.999Z' })
  to!: string | null;
}

export class CorrectedDocumentDto {
  @ApiProperty({ ...ID, example: '6751a1b2c3d4e5f6a7b8c9d0' })
  documentId!: string;
  @ApiProperty({ ...NUMBER, example: 'INV-2026-000001' })
  number!: string;
}

/** Everything the document shows, frozen at issue (its PDF is rendered from this alone). */
export class DocumentSnapshotDto {
  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'commission_invoice' })
  type!: DocumentType;
  @ApiProperty({ type: String, nullable: true, ...NUMBER, example: 'INV-2026-000001' })
  number!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-04-01T02:00:00.000Z' })
  issuedAt!: string;
  @ApiProperty({ description: 'ISO 4217: the shop’s transfer currency', example: 'USD' })
  currency!: string;
  @ApiProperty({
    type: DocumentPartyDto,
    description: 'Commission kinds and statements: the shop; self-billed invoice: the vendor',
  })
  issuer!: DocumentPartyDto;
  @ApiProperty({
    type: DocumentPartyDto,
    description: 'Commission kinds and statements: the vendor; self-billed invoice: the shop',
  })
  recipient!: DocumentPartyDto;
  @ApiProperty({
    type: [String],
    description: 'Mentions printed verbatim (a self-billed invoice: "Self-billing")',
    example: [],
  })
  mentions!: string[];
  @ApiProperty({ type: String, nullable: true, ...ID, example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string | null;
  @ApiProperty({ type: DocumentPeriodDto })
  period!: DocumentPeriodDto;
  @ApiProperty({ type: [DocumentLineDto], description: 'One line per order (oldest first)' })
  lines!: DocumentLineDto[];
  @ApiProperty({ type: DocumentTotalsDto })
  totals!: DocumentTotalsDto;
  @ApiProperty({ type: [CorrectedDocumentDto], description: 'A credit note: the invoices it corrects' })
  corrects!: CorrectedDocumentDto[];
}

/** An issued document (GET /v1/documents/{id}; `data.object` of `document.issued`, without tax ids). */
export class DocumentDto {
  @ApiProperty({ ...ID, example: '6751a1b2c3d4e5f6a7b8c9d0' })
  id!: string;
  @ApiProperty({ ...ID, example: '6740b9f1c2a4e15b3c9d0a11' })
  shopId!: string;
  @ApiProperty({ ...ID, example: '6741a1b2c3d4e5f6a7b8c9d0' })
  vendorId!: string;
  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'commission_invoice' })
  type!: DocumentType;
  @ApiProperty({
    type: String,
    nullable: true,
    ...NUMBER,
    description: '`{prefix}{year}-{seq:06}`; null on unnumbered kinds (payout statement, packing slip)',
    example: 'INV-2026-000001',
  })
  number!: string | null;
  @ApiProperty({ type: String, nullable: true, ...ID, example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'A per-order document’s order', example: null })
  orderId!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-04-01T02:00:00.000Z' })
  issuedAt!: string;
  @ApiProperty({ type: DocumentSnapshotDto })
  snapshot!: DocumentSnapshotDto;
}

export class DocumentListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [DocumentDto] })
  documents!: DocumentDto[];
}

export class DocumentEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: DocumentDto })
  data!: DocumentDto;
}

export class DocumentPageDto {
  @ApiProperty({ type: [DocumentDto] })
  items!: DocumentDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 1 })
  totalCount!: number;
}

export class DocumentPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: DocumentPageDto })
  data!: DocumentPageDto;
}
