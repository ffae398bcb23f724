import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VendorsModule } from '../vendors/vendors.module';
import { Product, ProductSchema } from './product.schema';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';
import { SystemProductsRepository } from './system-products.repository';
import { ProductsV1Controller } from './products.v1.controller';
import { ProductsV2Controller } from './products.v2.controller';
import { ProductReadsService } from './product-reads.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: Product.name, schema: ProductSchema }]), VendorsModule],
  controllers: [ProductsV1Controller, ProductsV2Controller],
  providers: [ProductsRepository, SystemProductsRepository, ProductsService, ProductReadsService],
  exports: [ProductsService, ProductsRepository, SystemProductsRepository],
})
export class ProductsModule {}
