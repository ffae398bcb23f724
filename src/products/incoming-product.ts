import type { ProductImage, ProductVariant } from './product.schema';

/** A product as the products feature consumes it, normalised from the store platform's JSON by ingestion. */
export interface IncomingProduct {
  productId: string;
  title: string;
  handle: string;
  productType: string;
  vendor: string;
  status: string;
  tags: string[];
  variants: ProductVariant[];
  images: ProductImage[];
  createdAt: Date;
  updatedAt: Date;
}
