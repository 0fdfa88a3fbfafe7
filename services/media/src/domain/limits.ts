/**
 * At most `max` jobs run at once; the others wait in arrival order. Image processing runs through
 * one of these so that parallel uploads queue instead of decoding many images at the same time.
 */
export class WorkLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** highest number of jobs that ever ran at once (tests and metrics) */
  peakActive = 0;

  constructor(readonly max: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    this.peakActive = Math.max(this.peakActive, this.active);
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next job, so `active` stays as it is
      if (next) next();
      else this.active--;
    }
  }

  get stats(): { active: number; waiting: number; peakActive: number } {
    return { active: this.active, waiting: this.waiting.length, peakActive: this.peakActive };
  }
}

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
