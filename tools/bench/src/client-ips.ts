/**
 * Simulated client addresses for X-Forwarded-For: a fresh 10.x.y.z per request (16M before wrapping),
 * so every simulated client stays far below the global limit of 100 requests/min while the gateway
 * still consults its Redis limiter for every request. These are header strings only: nothing is
 * sent to those addresses.
 */
export class ClientIps {
  private issued = 0;

  next(): string {
    this.issued += 1;
    const n = this.issued % 0xff_ff_ff;
    return `10.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;
  }

  /** How many addresses were handed out (one per request autocannon built). */
  get count(): number {
    return this.issued;
  }
}
