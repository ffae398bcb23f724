import type { Content, TableCell } from 'pdfmake/interfaces';
import { renderPdfmake } from '../../common/pdf/pdfmake';
import { addressLines, day, footer, metaBlock, PAGE, TABLE_LAYOUT } from './pdf-layout';
import type { PackingSlipSnapshot, ShipTo } from './packing-slip.types';

function shipToLines(a: ShipTo | null): string[] {
  if (!a) return ['No shipping address on the order'];
  return [
    a.name,
    a.company,
    a.address1,
    a.address2,
    [a.zip, a.city].filter(Boolean).join(' '),
    [a.province, a.country].filter(Boolean).join(', '),
    a.phone,
  ].filter((l): l is string => !!l);
}

/**
 * A packing slip: one order's lines of one vendor (SKU, title, quantity) and the ship-to address.
 * It prints no price and no figure (it goes into the parcel). Pure: the same snapshot, the same bytes.
 */
export function renderPackingSlipPdf(s: PackingSlipSnapshot): Promise<Buffer> {
  const body: TableCell[][] = [
    [
      { text: 'SKU', style: 'th' },
      { text: 'Item', style: 'th' },
      { text: 'Quantity', style: 'th', alignment: 'right' },
    ],
    ...s.lines.map((l): TableCell[] => [
      l.sku ?? '—',
      l.title,
      { text: String(l.quantity), alignment: 'right' },
    ]),
  ];
  const content: Content[] = [
    { text: 'Packing slip', style: 'title' },
    metaBlock([
      ['Order', s.order.name ?? s.order.id],
      ['Order date', day(s.order.createdAt)],
      ['Vendor', s.vendor.name],
      ['Printed', day(s.issuedAt)],
    ]),
    {
      columns: [
        {
          stack: [
            { text: 'From', style: 'label' },
            { text: s.sender.name, style: 'partyName' },
            ...addressLines(s.sender.address).map((text) => ({ text })),
          ],
        },
        {
          stack: [
            { text: 'Ship to', style: 'label' },
            ...shipToLines(s.shipTo).map((text, i) => ({ text, bold: i === 0 })),
          ],
        },
      ],
      columnGap: 24,
      margin: [0, 0, 0, 16],
    },
    {
      table: { headerRows: 1, widths: [110, '*', 60], body, dontBreakRows: true },
      layout: TABLE_LAYOUT,
    },
  ];
  return renderPdfmake(
    { ...PAGE, content, footer: footer([`${s.sender.name} · order ${s.order.name ?? s.order.id}`]) },
    new Date(s.issuedAt),
    `Packing slip ${s.order.name ?? s.order.id}`,
  );
}
