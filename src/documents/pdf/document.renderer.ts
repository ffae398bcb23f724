import type { Content, TableCell } from 'pdfmake/interfaces';
import { renderPdfmake } from '../../common/pdf/pdfmake';
import type { DocumentSnapshot, DocumentType } from '../document.types';
import { day, footer, issuerFooterLine, metaBlock, PAGE, partyBlock, TABLE_LAYOUT } from './pdf-layout';

interface KindText {
  title: string;
  issuer: string;
  recipient: string;
  net: string;
  tax: string;
}

/** What each kind calls itself and its columns (DESIGN §14). */
const KIND: Record<DocumentType, KindText> = {
  commission_invoice: {
    title: 'Commission invoice',
    issuer: 'Issued by (marketplace operator)',
    recipient: 'Billed to (vendor)',
    net: 'Commission',
    tax: 'Tax on commission',
  },
  credit_note: {
    title: 'Credit note',
    issuer: 'Issued by (marketplace operator)',
    recipient: 'Credited to (vendor)',
    net: 'Commission',
    tax: 'Tax on commission',
  },
  self_billed_invoice: {
    title: 'Self-billed invoice',
    issuer: 'Supplier (vendor)',
    recipient: 'Customer, issuing on the supplier’s behalf',
    net: 'Taxable amount',
    tax: 'VAT',
  },
  payout_statement: {
    title: 'Payout statement',
    issuer: 'From (marketplace operator)',
    recipient: 'To (vendor)',
    net: 'Net',
    tax: 'Tax',
  },
  packing_slip: {
    title: 'Packing slip',
    issuer: 'From',
    recipient: 'To',
    net: 'Net',
    tax: 'Tax',
  },
};

const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });

/**
 * A stored document's PDF (commission invoice, credit note, self-billed invoice, payout statement),
 * a pure function of its snapshot: the same snapshot gives the same bytes (the metadata dates are
 * its `issuedAt`). Every figure is the snapshot's string, printed as it is: nothing is added up here.
 * A self-billed invoice is the vendor's invoice issued by the operator on its behalf: its snapshot's
 * issuer is the vendor (printed as the supplier) and its recipient the operator (the customer); both
 * VAT ids print.
 */
export function renderDocumentPdf(s: DocumentSnapshot): Promise<Buffer> {
  const k = KIND[s.type];
  const [left, right_] = [partyBlock(k.issuer, s.issuer), partyBlock(k.recipient, s.recipient)];
  const meta: [string, string][] = [
    ...(s.number ? [['Number', s.number] as [string, string]] : []),
    ['Date of issue', day(s.issuedAt)],
    ['Period', `${day(s.period.from)} – ${day(s.period.to)}`],
    ['Currency', s.currency],
    ...(s.batchId ? [['Payout batch', s.batchId] as [string, string]] : []),
  ];
  const content: Content[] = [
    { text: k.title, style: 'title' },
    ...s.mentions.map((text) => ({ text, style: 'mention' })),
    metaBlock(meta),
    { columns: [left, right_], columnGap: 24, margin: [0, 0, 0, 16] },
  ];
  if (s.corrects.length > 0) {
    content.push({
      text: `Corrects: ${s.corrects.map((c) => c.number).join(', ')}`,
      bold: true,
      margin: [0, 0, 0, 10],
    });
  }
  // a stored packing slip carries no figure to print (DESIGN §14: no prices)
  if (s.type === 'packing_slip') content.push(descriptionsTable(s));
  else content.push(linesTable(s, k), totalsTable(s, k));
  return renderPdfmake(
    {
      ...PAGE,
      content,
      footer: footer([s.mentions.join(' · '), issuerFooterLine(s.issuer)].filter(Boolean)),
    },
    new Date(s.issuedAt),
    s.number ? `${k.title} ${s.number}` : k.title,
  );
}

function linesTable(s: DocumentSnapshot, k: KindText): Content {
  const head: TableCell[] = ['Order', 'Date', 'Description', k.net, k.tax, 'Total'].map((text, i) => ({
    text,
    style: 'th',
    alignment: i > 2 ? 'right' : 'left',
  }));
  const body: TableCell[][] = [
    head,
    ...s.lines.map((l): TableCell[] => [
      l.orderName ?? l.orderId,
      day(l.orderDate),
      l.description,
      right(l.net),
      right(l.tax),
      right(l.total),
    ]),
  ];
  return {
    table: { headerRows: 1, widths: [60, 55, '*', 60, 60, 60], body, dontBreakRows: true },
    layout: TABLE_LAYOUT,
    margin: [0, 0, 0, 10],
  };
}

function descriptionsTable(s: DocumentSnapshot): Content {
  const body: TableCell[][] = [
    [
      { text: 'Order', style: 'th' },
      { text: 'Description', style: 'th' },
    ],
    ...s.lines.map((l): TableCell[] => [l.orderName ?? l.orderId, l.description]),
  ];
  return { table: { headerRows: 1, widths: [80, '*'], body }, layout: TABLE_LAYOUT };
}

function totalsTable(s: DocumentSnapshot, k: KindText): Content {
  return {
    columns: [
      { width: '*', text: '' },
      {
        width: 'auto',
        table: {
          body: [
            [{ text: `Total ${k.net.toLowerCase()}`, style: 'totalLabel' }, right(s.totals.net)],
            [{ text: `Total ${k.tax.toLowerCase()}`, style: 'totalLabel' }, right(s.totals.tax)],
            [{ text: `Total (${s.currency})`, style: 'totalLabel' }, right(s.totals.total, true)],
          ],
        },
        layout: TABLE_LAYOUT,
      },
    ],
  };
}
