import type { Redis } from 'ioredis';

/**
 * Sends a Redis connection's commands of one event-loop turn in one socket write: the first command of a
 * turn corks the socket and the turn's end (setImmediate) uncorks it. Every API request makes a rate-limiter
 * round trip, and under load several requests arrive in one turn; a write each was a tenth of the gateway's
 * CPU (a loopback send is a system call that also does the receiving side's work). Commands keep their order
 * and each caller still awaits its own reply; the delay is the rest of the current turn.
 */
export class WriteCoalescer {
  private held = false;

  constructor(private readonly redis: Redis) {}

  /** Holds this turn's writes (the connection's current socket, if it can be written to). */
  hold(): void {
    if (this.held) return;
    const socket = this.redis.stream;
    if (!socket?.writable) return;
    this.held = true;
    socket.cork();
    setImmediate(() => {
      this.held = false;
      socket.uncork();
    });
  }
}
