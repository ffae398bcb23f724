/* eslint-disable @typescript-eslint/no-explicit-any */
import type { TestingModuleBuilder } from '@nestjs/testing';
import { startApp, type TestApp } from './app';
import { createVendor } from './catalog';
import { createShop, type TestShop } from './factory';

export const RULES = '/v1/commissions/rules';

/** Product ids no other test file uses: each test takes fresh ones, so rule groups never collide. */
let nextProduct = 7_000_000_000_000 + (process.pid % 1000) * 1_000_000;

/**
 * The commission-rules e2e files' setting: an app, a shop with two vendors, another shop with one,
 * and the reads the files check their writes with (list total, audit trail, stored events).
 */
export class RulesFixture {
  t!: TestApp;
  shop!: TestShop;
  other!: TestShop;
  vendorA!: string;
  vendorB!: string;
  foreignVendor!: string;

  static async start(customise?: (b: TestingModuleBuilder) => TestingModuleBuilder): Promise<RulesFixture> {
    const f = new RulesFixture();
    f.t = await startApp(customise);
    f.shop = await createShop(f.t, 'rules');
    f.other = await createShop(f.t, 'rules-other');
    f.vendorA = (await createVendor(f.t, f.shop, 'Rule Vendor A'))._id;
    f.vendorB = (await createVendor(f.t, f.shop, 'Rule Vendor B'))._id;
    f.foreignVendor = (await createVendor(f.t, f.other, 'Rule Foreign'))._id;
    return f;
  }

  productId(): string {
    return String(++nextProduct);
  }

  post(body: unknown, s: TestShop = this.shop, q = '') {
    return this.t.api.post(`${RULES}${q}`, body, { token: s.token });
  }

  /** How many rules the shop has (GET total). */
  async total(s: TestShop = this.shop): Promise<number> {
    const res = await this.t.api.get(`${RULES}?limit=1`, { token: s.token });
    expect(res.status).toBe(200);
    return res.body.total;
  }

  async auditOf(action: string, id: string): Promise<any[]> {
    const res = await this.t.api.get(`/v1/audit-events?limit=250&action=${action}&resourceId=${id}`, {
      token: this.shop.token,
    });
    expect(res.status).toBe(200);
    return res.body.events;
  }

  async eventsOf(type: string): Promise<any[]> {
    const res = await this.t.api.get(`/v1/events?limit=250&type=${type}`, { token: this.shop.token });
    expect(res.status).toBe(200);
    return res.body.events;
  }
}
