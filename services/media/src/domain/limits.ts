/**
 * Admission of uploads: each admitted upload may hold one file in memory until it is done, so
 * refusing beyond `max` bounds the memory that bodies waiting for processing can take.
 */
export class Admission {
  private inFlight = 0;

  constructor(readonly max: number) {}

  /** A release function (idempotent), or undefined when full. */
  tryEnter(): (() => void) | undefined {
    if (this.inFlight >= this.max) return undefined;
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
    };
  }

  get current(): number {
    return this.inFlight;
  }
}
