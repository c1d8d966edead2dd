import { Test } from '@nestjs/testing';
import { providerOf } from './provider-of';

abstract class Greetings {
  abstract greet(name: string): string;
}
abstract class Punctuation {
  abstract readonly mark: string;
}

class Greeter {
  constructor(
    readonly greetings: Greetings,
    readonly punctuation: Punctuation,
  ) {}

  execute(name: string): string {
    return `${this.greetings.greet(name)}${this.punctuation.mark}`;
  }
}

/** A class that takes its collaborators as one named object. */
class NamedGreeter {
  constructor(readonly parts: { greetings: Greetings; punctuation: Punctuation }) {}

  execute(name: string): string {
    return `${this.parts.greetings.greet(name)}${this.parts.punctuation.mark}`;
  }
}

const bindings = [
  { provide: Greetings, useValue: { greet: (name: string) => `Hello, ${name}` } },
  { provide: Punctuation, useValue: { mark: '!' } },
];

describe('providerOf', () => {
  // Defends: the injected ports reaching the constructor out of the order `inject` names them.
  it("builds the class from its ports, each injected by its abstract class, in the constructor's order", async () => {
    const module = await Test.createTestingModule({ providers: [...bindings, providerOf(Greeter, [Greetings, Punctuation])] }).compile();
    const greeter = module.get(Greeter);
    expect(greeter.execute('Ada')).toBe('Hello, Ada!');
    expect(greeter.greetings).toBe(module.get(Greetings));
  });

  it('builds it with the factory given, from the same ports, under a class or a string token', async () => {
    const louder = providerOf(
      Greeter,
      [Punctuation, Greetings],
      (punctuation, greetings) => new Greeter(greetings, { mark: punctuation.mark.repeat(3) }),
    );
    const named = providerOf('Greeting', [Greetings], (greetings) => greetings.greet('Grace'));
    const module = await Test.createTestingModule({ providers: [...bindings, louder, named] }).compile();
    expect(module.get(Greeter).execute('Ada')).toBe('Hello, Ada!!!');
    expect(module.get('Greeting')).toBe('Hello, Grace');
  });

  // Defends: a collaborator given under another one's name (both ports would type-check as each other only if alike).
  it('builds a class that takes one named object, each field injected by the token named beside it', async () => {
    const module = await Test.createTestingModule({
      providers: [...bindings, providerOf(NamedGreeter, { punctuation: Punctuation, greetings: Greetings })],
    }).compile();
    const greeter = module.get(NamedGreeter);
    expect(greeter.execute('Ada')).toBe('Hello, Ada!');
    expect(greeter.parts.greetings).toBe(module.get(Greetings));
    expect(greeter.parts.punctuation).toBe(module.get(Punctuation));
  });
});
