import type { LegalAddress } from '../../common/legal/legal-address.dto';

/** A ship-to address as the order carries it (the store platform's shipping address fields). */
export interface ShipTo {
  name: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
}

/**
 * What a packing slip shows (DESIGN §14): one order's lines of one vendor and where they go. No
 * price, no figure: it travels in the parcel. Rendered on request from the order's current lines
 * (docs-notes/doc-pdf.md: why it is not stored).
 */
export interface PackingSlipSnapshot {
  /** The moment it was rendered (ISO); also the PDF's metadata dates. */
  issuedAt: string;
  sender: { name: string; address: LegalAddress | null };
  vendor: { id: string; name: string };
  order: { id: string; name: string | null; createdAt: string };
  shipTo: ShipTo | null;
  lines: { sku: string | null; title: string; quantity: number }[];
}
