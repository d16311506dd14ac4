// A route's settings as the guards read them (handler first, then controller), no server.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutionContext } from '@nestjs/common';
import { SetMetadata } from '@nestjs/common';
import { routeSetting } from './route-settings';

const KEY = 'test:setting';

@SetMetadata(KEY, 'base')
class Base {
  inherited() {}
  @SetMetadata(KEY, 'handler')
  own() {}
  plain() {}
}

@SetMetadata(KEY, 'sub')
class Sub extends Base {}

class Bare {
  nothing() {}
}

const context = (controller: object, handler: object) =>
  ({ getClass: () => controller, getHandler: () => handler }) as unknown as ExecutionContext;

describe('routeSetting', () => {
  it('takes the handler’s value over the controller’s, and the controller’s otherwise', () => {
    assert.equal(routeSetting(context(Base, Base.prototype.own), KEY), 'handler');
    assert.equal(routeSetting(context(Base, Base.prototype.plain), KEY), 'base');
  });

  it('answers per controller for one inherited handler', () => {
    assert.equal(routeSetting(context(Base, Base.prototype.inherited), KEY), 'base');
    assert.equal(routeSetting(context(Sub, Base.prototype.inherited), KEY), 'sub');
    assert.equal(routeSetting(context(Base, Base.prototype.inherited), KEY), 'base');
  });

  it('answers undefined when neither has the key, every time', () => {
    assert.equal(routeSetting(context(Bare, Bare.prototype.nothing), KEY), undefined);
    assert.equal(routeSetting(context(Bare, Bare.prototype.nothing), KEY), undefined);
  });
});
