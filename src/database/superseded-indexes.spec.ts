import { dropSupersededIndexes } from './superseded-indexes';

describe('dropSupersededIndexes', () => {
  it('builds the declared indexes first, then drops each old one, an absent one being nothing to do', async () => {
    const calls: string[] = [];
    const model = {
      init: async () => void calls.push('init'),
      collection: {
        dropIndex: async (name: string) => {
          calls.push(`drop ${name}`);
          if (name === 'gone_1') throw new Error('index not found with name [gone_1]');
        },
      },
    };
    await dropSupersededIndexes(model, ['gone_1', 'old_1']);
    expect(calls).toEqual(['init', 'drop gone_1', 'drop old_1']);
  });
});
