import { Types } from 'mongoose';
import { DispatchBench, HeldResolver } from '../../test/fakes/dispatch.fake';
import { lookupSpy } from '../../test/fakes/dns.fake';
import { shopScope } from '../common/tenancy';

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((ok) => setTimeout(ok, 5));
};

describe('EventDispatcher: per-shop cap before name resolution (issue 28)', () => {
  it("resolves no endpoint name of a shop at its cap; another shop's attempt resolves at once; none uses dns.lookup", async () => {
    const lookup = lookupSpy();
    try {
      const resolver = new HeldResolver();
      const bench = new DispatchBench(resolver, { endpoint: 16, shop: 2 });
      const busy = shopScope(new Types.ObjectId().toHexString());
      const other = shopScope(new Types.ObjectId().toHexString());
      const jobs = ['a', 'b', 'c', 'd'].map((n) => bench.pending(busy, `https://${n}.slow-hooks.example/h`));
      const runs = jobs.map((job) => bench.dispatcher.deliver(busy, job));
      await settle();
      // two attempts hold the shop's two slots while their names hang; c and d wait unresolved
      expect(resolver.asked).toEqual(['a.slow-hooks.example', 'b.slow-hooks.example']);
      const elsewhere = bench.pending(other, 'https://fine.example/h');
      const otherRun = bench.dispatcher.deliver(other, elsewhere);
      await settle();
      expect(resolver.asked).toEqual(['a.slow-hooks.example', 'b.slow-hooks.example', 'fine.example']);
      // the names answer (each fails); the waiting attempts take the freed slots, then resolve
      for (let i = 0; i < 3; i++) {
        resolver.releaseAll();
        await settle();
      }
      await Promise.all([...runs, otherRun]);
      expect(resolver.asked.slice(3).sort()).toEqual(['c.slow-hooks.example', 'd.slow-hooks.example']);
      expect(bench.attempts.map((a) => a.attempt.error)).toEqual(
        Array(5).fill(expect.stringMatching(/^network: The host .* could not be resolved$/)),
      );
      expect(lookup).not.toHaveBeenCalled();
    } finally {
      lookup.mockRestore();
    }
  });

  it('an endpoint whose secret opens under no key: no name resolved, nothing sent, the attempt logged as a signing failure', async () => {
    const resolver = new HeldResolver();
    const bench = new DispatchBench(resolver, { endpoint: 16, shop: 2 });
    const shop = shopScope(new Types.ObjectId().toHexString());
    const job = bench.pending(shop, 'https://hooks.example/h');
    bench.endpoints[0].secrets = bench.endpoints[0].secrets.map((s) => ({
      ...s,
      secretEnc: s.secretEnc.replace(/^v2\.[0-9a-f]{8}\./, 'v2.00000000.'),
    }));
    await bench.dispatcher.deliver(shop, job);
    expect(resolver.asked).toEqual([]);
    expect(bench.attempts).toHaveLength(1);
    expect(bench.attempts[0].attempt).toMatchObject({ statusCode: null, durationMs: 0, response: null });
    expect(bench.attempts[0].attempt.error).toMatch(/^signing: .*nothing was sent$/);
    expect(bench.attempts[0].next.status).toBe('pending'); // retried on the schedule
  });
});
