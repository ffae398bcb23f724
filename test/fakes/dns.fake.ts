import type { DnsQueries } from '../../src/common/http/outbound/host-resolver';

type Answer = Array<{ address: string; ttl: number }>;

/** A DNS error as c-ares reports it (`ENOTFOUND`, `ENODATA`, `ETIMEOUT`…). */
export const dnsError = (code: string) => Object.assign(new Error(code), { code });

/**
 * DNS queries answered from a table (`v4`/`v6` by name; an unknown name is ENOTFOUND), every query
 * recorded in `asked` (`A name`, `AAAA name`); while `hold` is set, answers wait for it.
 */
export class ScriptedDns implements DnsQueries {
  readonly asked: string[] = [];
  v4 = new Map<string, Answer | Error>();
  v6 = new Map<string, Answer | Error>();
  hold: Promise<void> | null = null;

  resolve4(host: string): Promise<Answer> {
    return this.answer('A', host, this.v4);
  }

  resolve6(host: string): Promise<Answer> {
    return this.answer('AAAA', host, this.v6);
  }

  private async answer(kind: string, host: string, table: Map<string, Answer | Error>): Promise<Answer> {
    this.asked.push(`${kind} ${host}`);
    if (this.hold) await this.hold;
    const a = table.get(host) ?? dnsError('ENOTFOUND');
    if (a instanceof Error) throw a;
    return a;
  }
}

/**
 * A jest spy on the real `dns.lookup` (on the module object itself: a namespace import's properties
 * cannot be redefined), for tests that prove a path never uses the libuv pool's resolver.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dnsModule = require('node:dns') as typeof import('node:dns');

export function lookupSpy(): jest.SpyInstance {
  return jest.spyOn(dnsModule, 'lookup');
}
