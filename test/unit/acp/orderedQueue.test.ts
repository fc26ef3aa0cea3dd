import * as assert from 'node:assert/strict';
import { OrderedQueue } from '../../../src/acp/orderedQueue';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('OrderedQueue (per-session ordering)', () => {
  it('runs async tasks of one key in arrival order, even when later ones are faster', async () => {
    const q = new OrderedQueue();
    const seen: number[] = [];
    const delays = [30, 1, 15, 0, 5];
    delays.forEach((d, i) => void q.enqueue('s1', async () => {
      await tick(d);
      seen.push(i);
    }));
    await q.drain('s1');
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  });

  it('does not make one session wait for another', async () => {
    const q = new OrderedQueue();
    const seen: string[] = [];
    void q.enqueue('slow', async () => {
      await tick(40);
      seen.push('slow');
    });
    void q.enqueue('fast', () => {
      seen.push('fast');
    });
    await q.drain('fast');
    assert.deepEqual(seen, ['fast']);
    await q.drain('slow');
    assert.deepEqual(seen, ['fast', 'slow']);
  });

  it('reports a failing task and keeps going', async () => {
    const errors: unknown[] = [];
    const q = new OrderedQueue((_k, e) => errors.push(e));
    const seen: number[] = [];
    void q.enqueue('s', () => {
      throw new Error('boom');
    });
    void q.enqueue('s', () => {
      seen.push(2);
    });
    await q.drain('s');
    assert.equal(errors.length, 1);
    assert.deepEqual(seen, [2]);
    assert.equal(q.size, 0);
  });
});
