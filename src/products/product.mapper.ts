import { ProductDto } from './dto/product.dto';
import type { Product } from './product.schema';

export function toProductResponse(p: Product, vendorId: string | null): ProductDto {
  return {
    _id: String(p._id),
    // documents stored before ids became strings hold numbers: the API answers strings either way
    productId: String(p.productId),
    title: p.title,
    handle: p.handle,
    productType: p.productType,
    vendor: p.vendor,
    vendorId,
    status: p.status,
    totalInventory: p.totalInventory,
    isDigital: p.isDigital,
    variants: (p.variants ?? []).map((v) => ({
      id: v.id == null ? null : String(v.id),
      title: v.title ?? null,
      sku: v.sku ?? null,
      price: v.price,
      inventoryQuantity: v.inventoryQuantity,
      requiresShipping: v.requiresShipping,
    })),
    images: (p.images ?? []).map((i) => ({
      id: i.id == null ? null : String(i.id),
      src: i.src ?? null,
      alt: i.alt ?? null,
      position: i.position ?? null,
    })),
    tags: p.tags ?? [],
    createdAt: new Date(p.platformCreatedAt).toISOString(),
    updatedAt: new Date(p.platformUpdatedAt).toISOString(),
  };
}
