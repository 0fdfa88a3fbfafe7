/**
 * At most `max` jobs run at once; the others wait in arrival order. With a `queue`, at most
 * `queue.max` wait and one more is refused at once (`run` throws what `queue.full` answers), so
 * a flood costs a bounded amount of memory instead of all of it.
 */
export class WorkLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** highest number of jobs that ever ran at once (tests and metrics) */
  peakActive = 0;

  constructor(
    readonly max: number,
    private readonly queue?: { max: number; full: () => Error },
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) {
      if (this.queue && this.waiting.length >= this.queue.max) throw this.queue.full();
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
