import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VendorsModule } from '../vendors/vendors.module';
import { Product, ProductSchema } from './product.schema';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';
import { ProductsV1Controller } from './products.v1.controller';

@Module({
  imports: [MongooseModule.forFeature([{ name: Product.name, schema: ProductSchema }]), VendorsModule],
  controllers: [ProductsV1Controller],
  providers: [ProductsRepository, ProductsService],
  exports: [ProductsService, ProductsRepository],
})
export class ProductsModule {}
