import { EndpointGate } from './endpoint-gate';

const tick = () => new Promise((ok) => setImmediate(ok));
const SLOW = { shopId: 'shop-1', endpointId: 'slow' };
const FAST = { shopId: 'shop-2', endpointId: 'fast' };

describe('EndpointGate', () => {
  it('runs at most `limit` tasks per endpoint, queues the rest, and never holds up another endpoint', async () => {
    const gate = new EndpointGate(2);
    const release: Array<() => void> = [];
    const started: string[] = [];
    const task = (name: string) => () =>
      new Promise<void>((ok) => {
        started.push(name);
        release.push(ok);
      });
    expect(gate.submit(SLOW, 'a', task('a'))).toBeInstanceOf(Promise);
    expect(gate.submit(SLOW, 'b', task('b'))).toBeInstanceOf(Promise);
    expect(gate.submit(SLOW, 'c', task('c'))).toBe('queued');
    expect(gate.submit(SLOW, 'c', task('c'))).toBe('dropped');
    expect(gate.submit(FAST, 'x', task('x'))).toBeInstanceOf(Promise);
    expect(started).toEqual(['a', 'b', 'x']);
    expect(gate.inFlight('slow')).toBe(2);
    expect(gate.waitingFor('slow')).toBe(1);
    release[0]();
    await tick();
    await tick();
    expect(started).toEqual(['a', 'b', 'x', 'c']);
    expect(gate.inFlight('slow')).toBe(2);
  });

  it("caps one shop's attempts across its endpoints, takes turns between them, and never holds up another shop", async () => {
    const gate = new EndpointGate(2, 3);
    const release = new Map<string, () => void>();
    const started: string[] = [];
    const task = (name: string) => () =>
      new Promise<void>((ok) => {
        started.push(name);
        release.set(name, ok);
      });
    const a = (endpointId: string) => ({ shopId: 'big', endpointId });
    for (const [ep, key] of [
      ['e1', 'a1'],
      ['e1', 'a2'],
      ['e2', 'b1'],
      ['e2', 'b2'],
      ['e3', 'c1'],
      ['e1', 'a3'],
    ])
      gate.submit(a(ep), key, task(key));
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(gate.inFlightForShop('big')).toBe(3);
    expect(gate.waitingFor('e2')).toBe(1);
    expect(gate.waitingFor('e3')).toBe(1);
    expect(gate.submit({ shopId: 'small', endpointId: 'e9' }, 'z', task('z'))).toBeInstanceOf(Promise);
    release.get('a1')!();
    await tick();
    await tick();
    // e1 has room again, but e2 and e3 waited first: the freed shop slot goes to e2
    expect(started).toEqual(['a1', 'a2', 'b1', 'z', 'b2']);
    release.get('a2')!();
    await tick();
    await tick();
    expect(started.slice(-1)).toEqual(['c1']);
    expect(gate.inFlightForShop('big')).toBe(3);
    release.get('b1')!();
    await tick();
    await tick();
    expect(started.slice(-1)).toEqual(['a3']);
    expect(gate.waitingFor('e1') + gate.waitingFor('e2') + gate.waitingFor('e3')).toBe(0);
  });
});
