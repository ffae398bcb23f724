import { shopDomainProblem } from './shop-domain';

describe('shopDomainProblem', () => {
  it.each([
    ['acme.myshopify.com', []],
    ['  ACME-2.MyShopify.com ', []],
    ['shop.example.com', ['shop.example.com']],
    ['eu.shops.example.org', ['*.shops.example.org']],
  ])('allows %s (allow-list %j)', (domain, allowed) => {
    expect(shopDomainProblem(domain, allowed)).toBeNull();
  });

  it.each([
    ['127.0.0.1', [], /IP address/],
    ['169.254.169.254', ['*.254'], /IP address/],
    ['[::1]', [], /IP address/],
    ['2130706433', [], /IP address/],
    ['evil.example.com', [], /not a store-platform domain/],
    ['acme.myshopify.com.evil.example', [], /not a store-platform domain/],
    ['a.b.myshopify.com', [], /not a store-platform domain/],
    ['shops.example.org', ['*.shops.example.org'], /not a store-platform domain/],
    ['localhost', [], /not a valid host name/],
    ['not a domain', [], /not a valid host name/],
  ])('refuses %s (allow-list %j)', (domain, allowed, reason) => {
    expect(shopDomainProblem(domain, allowed)).toMatch(reason);
  });
});
