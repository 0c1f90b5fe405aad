import * as assert from 'node:assert/strict';
import { Disposable } from '../../src/extension/lifecycle';
import { Emitter } from '../../src/extension/model/emitter';
import { unexpectedErrors } from './hooks';

class Owner extends Disposable {
  add(dispose: () => void): void {
    this.register({ dispose });
  }
}

describe('errors no caller can be handed', () => {
  it('a listener that throws is reported, and the listeners after it still hear the event', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event(() => {
      throw new Error('listener broke');
    });
    emitter.event((n) => heard.push(n));
    emitter.fire(7);
    assert.deepEqual(heard, [7]);
    const reported = unexpectedErrors.take();
    assert.equal(reported.length, 1);
    assert.match(reported[0] ?? '', /^an event listener: Error: listener broke/);
  });

  it('a disposable that throws is reported, and the others are still disposed', () => {
    const owner = new Owner();
    const disposed: string[] = [];
    owner.add(() => disposed.push('first'));
    owner.add(() => {
      throw new Error('dispose broke');
    });
    owner.add(() => disposed.push('last'));
    owner.dispose();
    assert.deepEqual(disposed, ['last', 'first']);
    const reported = unexpectedErrors.take();
    assert.equal(reported.length, 1);
    assert.match(reported[0] ?? '', /^disposing of Owner: Error: dispose broke/);
  });

  it('nothing is reported when nothing throws', () => {
    const emitter = new Emitter<void>();
    emitter.event(() => undefined);
    emitter.fire();
    new Owner().dispose();
    assert.deepEqual(unexpectedErrors.take(), []);
  });
});
