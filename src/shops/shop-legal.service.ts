import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { lastFour, maskedTail, SEALED } from '../common/legal/identifiers';
import { LegalAddress, legalAddressOf } from '../common/legal/legal-address.dto';
import { DataCipher } from '../common/secrets/data-cipher';
import type { ShopScope } from '../common/tenancy';
import { DocumentPrefixesDto, ShopLegalDto, UpdateShopLegalDto } from './dto/legal.dto';
import { ShopLegalRepository } from './shop-legal.repository';
import type { ShopLegal } from './shop.schema';

export const DOCUMENT_SERIES = ['commission_invoice', 'credit_note', 'self_billed_invoice'] as const;
export type DocumentSeries = (typeof DOCUMENT_SERIES)[number];
export const DEFAULT_PREFIXES: Record<DocumentSeries, string> = {
  commission_invoice: 'INV-',
  credit_note: 'CN-',
  self_billed_invoice: 'SB-',
};

/** The shop as the issuer of a document, in clear (the document snapshot takes it at issue time). */
export interface ShopLegalParty {
  legalName: string | null;
  address: LegalAddress | null;
  vatId: string | null;
  taxId: string | null;
  prefixes: Record<DocumentSeries, string>;
  selfBilling: boolean;
}

/**
 * The shop's legal settings (DESIGN §14, `GET/PUT /v1/shop/legal`): who issues the shop's documents,
 * their number prefixes and whether it self-bills. The tax id is sealed at rest and never returned,
 * logged or audited in clear (reads: `taxIdProvided` + `taxIdLast4`; the audit trail: a masked tail).
 */
@Injectable()
export class ShopLegalService {
  constructor(
    private readonly repository: ShopLegalRepository,
    private readonly cipher: DataCipher,
    private readonly audit: AuditTrail,
  ) {}

  async get(scope: ShopScope): Promise<ShopLegalDto> {
    return toResponse(await this.stored(scope));
  }

  /** For document issuing: the issuer's details with the tax id opened. */
  async party(scope: ShopScope): Promise<ShopLegalParty> {
    const legal = await this.stored(scope);
    const r = toResponse(legal);
    return {
      legalName: r.legalName,
      address: r.address,
      vatId: r.vatId,
      taxId: this.openTaxId(scope, legal),
      prefixes: r.prefixes,
      selfBilling: r.selfBilling,
    };
  }

  async update(scope: ShopScope, body: UpdateShopLegalDto): Promise<ShopLegalDto> {
    const current = await this.stored(scope);
    const set: Record<string, unknown> = {};
    const expect: Record<string, unknown> = {};
    const text = (v: string | null) => (v === null ? null : v.trim());
    if (body.legalName !== undefined) set['legal.legalName'] = text(body.legalName);
    if (body.address !== undefined) set['legal.address'] = body.address && legalAddressOf(body.address);
    if (body.vatId !== undefined) set['legal.vatId'] = text(body.vatId);
    if (body.selfBilling !== undefined) set['legal.selfBilling'] = body.selfBilling;

    const was = this.openTaxId(scope, current);
    const taxId = body.taxId === undefined ? was : text(body.taxId);
    if (taxId !== was) {
      set['legal.taxIdEnc'] = taxId === null ? null : this.cipher.seal('shop-tax-id', scope.shopId, taxId);
      set['legal.taxIdLast4'] = lastFour(taxId);
    }

    const prefixes = prefixesOf(current);
    if (body.prefixes) {
      for (const series of DOCUMENT_SERIES) {
        const given = body.prefixes[series];
        if (given === undefined) continue;
        set[`legal.prefixes.${series}`] = given;
        // Distinctness was checked against what was read: the write holds only while it still is.
        expect[`legal.prefixes.${series}`] = current?.prefixes?.[series] ?? null;
        prefixes[series] = given;
      }
      distinctOrRefuse(prefixes);
    }
    if (Object.keys(set).length === 0) return toResponse(current);

    const before = auditView(current, was);
    const after = auditView(applied(current, set), taxId);
    const replaced = taxId !== was && before.taxId === after.taxId;
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'shop.legal.update',
      { type: 'shop', id: scope.shopId },
      { legal: before },
      { legal: after },
      // beside `legal`, not in it: the extra is merged shallowly and must not replace the diff
      replaced ? { after: { taxIdReplaced: true } } : undefined,
    );
    const saved = await this.repository.set(scope.shopId, set, expect, stamp, event);
    if (!saved) {
      if (!(await this.repository.find(scope.shopId))) throw new NotFoundError('Shop');
      throw new ConflictError('The legal settings changed meanwhile; read them again and retry');
    }
    await this.audit.commit(
      scope,
      this.repository.outbox,
      stamp,
      [event],
      [new Types.ObjectId(scope.shopId)],
    );
    return toResponse(saved.legal);
  }

  private async stored(scope: ShopScope): Promise<ShopLegal | null> {
    const shop = await this.repository.find(scope.shopId);
    if (!shop) throw new NotFoundError('Shop');
    return shop.legal;
  }

  private openTaxId(scope: ShopScope, legal: ShopLegal | null): string | null {
    const sealed = legal?.taxIdEnc ?? null;
    if (sealed === null) return null;
    const plain = this.cipher.open('shop-tax-id', scope.shopId, sealed);
    // A value no configured key opens: the key was dropped before secrets:rotate ran. Never guess.
    if (plain === null) throw new Error('The shop tax id opens under no configured DATA_ENCRYPTION_KEY');
    return plain;
  }
}

function prefixesOf(legal: ShopLegal | null): Record<DocumentSeries, string> {
  const out = { ...DEFAULT_PREFIXES };
  for (const s of DOCUMENT_SERIES) if (legal?.prefixes?.[s]) out[s] = legal.prefixes[s];
  return out;
}

function distinctOrRefuse(prefixes: Record<DocumentSeries, string>): void {
  const seen = new Map<string, DocumentSeries>();
  for (const s of DOCUMENT_SERIES) {
    const other = seen.get(prefixes[s]);
    if (other) {
      const message = `prefixes must be distinct: ${other} and ${s} would both be '${prefixes[s]}'`;
      throw new ValidationError(message, { fields: { [`prefixes.${s}`]: [message] } });
    }
    seen.set(prefixes[s], s);
  }
}

/** The stored legal part with `$set` leaves applied (for the audit view of the result). */
function applied(legal: ShopLegal | null, set: Record<string, unknown>): ShopLegal | null {
  const out = { ...(legal ?? {}), prefixes: { ...(legal?.prefixes ?? {}) } } as Record<string, unknown>;
  for (const [path, value] of Object.entries(set)) {
    const parts = path.split('.').slice(1);
    if (parts.length === 1) out[parts[0]] = value;
    else (out[parts[0]] as Record<string, unknown>)[parts[1]] = value;
  }
  return out as unknown as ShopLegal;
}

/** What the audit trail keeps: every field, the tax id as a masked tail only. */
function auditView(legal: ShopLegal | null, taxId: string | null): Record<string, unknown> {
  const r = toResponse(legal);
  return {
    legalName: r.legalName,
    address: r.address,
    vatId: r.vatId,
    taxId: taxId === null ? null : (maskedTail(taxId) ?? SEALED),
    prefixes: r.prefixes,
    selfBilling: r.selfBilling,
  };
}

export function toResponse(legal: ShopLegal | null): ShopLegalDto {
  const prefixes: DocumentPrefixesDto = prefixesOf(legal);
  return {
    legalName: legal?.legalName ?? null,
    address: legal?.address ?? null,
    vatId: legal?.vatId ?? null,
    taxIdProvided: !!legal?.taxIdEnc,
    taxIdLast4: legal?.taxIdEnc ? (legal.taxIdLast4 ?? null) : null,
    prefixes,
    selfBilling: legal?.selfBilling ?? false,
  };
}
