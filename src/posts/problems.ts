import { InvalidParamError, type InvalidParams } from '../lib';

/** An argument counts as given when present and not null. */
export function given<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** Runs every check and reports all bad parameters at once, like the reference's validator. */
export class Problems {
  readonly params: InvalidParams = {};
  check<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof InvalidParamError)) throw err;
      Object.assign(this.params, err.params);
      return undefined;
    }
  }
  add(name: string, reason: string): void {
    this.params[name] = reason;
  }
  throwIfAny(): void {
    if (Object.keys(this.params).length) throw new InvalidParamError(this.params);
  }
}
