import { Controller, Get, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMetadata } from './route-metadata';

const FLAG = 'flag';

@SetMetadata(FLAG, 'controller')
@Controller()
class Flagged {
  @Get('a')
  @SetMetadata(FLAG, 'handler')
  overridden(this: void): void {}

  @Get('b')
  inherited(this: void): void {}
}

@Controller()
class Plain {
  @Get('c')
  none(this: void): void {}
}

describe('RouteMetadata', () => {
  const routes: Array<[(this: void) => void, typeof Flagged | typeof Plain]> = [
    [Flagged.prototype.overridden, Flagged],
    [Flagged.prototype.inherited, Flagged],
    [Plain.prototype.none, Plain],
  ];

  it("answers as Reflector does, the handler's value over the controller's, asked once or many times", () => {
    const cached = new RouteMetadata();
    const answers = () => routes.map(([handler, controller]) => cached.getAllAndOverride(FLAG, [handler, controller]));
    const expected = routes.map(([handler, controller]) =>
      new Reflector().getAllAndOverride(FLAG, [handler, controller]),
    );
    expect(expected).toEqual(['handler', 'controller', undefined]);
    expect(answers()).toEqual(expected);
    expect(answers()).toEqual(expected);
  });

  it('answers each key apart', () => {
    const cached = new RouteMetadata();
    expect(cached.getAllAndOverride(FLAG, [Flagged.prototype.overridden, Flagged])).toBe('handler');
    expect(cached.getAllAndOverride('other', [Flagged.prototype.overridden, Flagged])).toBeUndefined();
  });

  it('passes other shapes of targets to Reflector', () => {
    expect(new RouteMetadata().getAllAndOverride(FLAG, [Flagged])).toBe('controller');
  });
});
