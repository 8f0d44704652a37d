/** The emulator's clock: real time plus an offset that tests move with `advanceTime`. */
export class EmulatorClock {
  private offsetMs: number;

  constructor(startTime?: Date) {
    this.offsetMs = startTime ? startTime.getTime() - Date.now() : 0;
  }

  /** Milliseconds since the epoch, as the emulator sees it. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceTime needs a finite number of ms >= 0, got ${ms}`);
    this.offsetMs += ms;
  }

  /** Zone-less wall time in seconds since 1970-01-01T00:00:00, as FileMaker timestamps are stored (local time). */
  wallSeconds(): number {
    const now = new Date(this.now());
    return Math.floor(now.getTime() / 1000) - now.getTimezoneOffset() * 60;
  }

  /** Today as days since 1970-01-01 in local time, for the `//` find operator. */
  today(): number {
    return Math.floor(this.wallSeconds() / 86_400);
  }
}
