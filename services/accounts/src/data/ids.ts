import { IdAllocator, type Connection } from '@spa/mongo';
import type { IdSequences } from '../domain/ports.js';

export class MongoIdSequences implements IdSequences {
  private readonly ids: IdAllocator;

  constructor(connection: Connection) {
    this.ids = new IdAllocator(connection);
  }

  next(sequence: Parameters<IdSequences['next']>[0]): Promise<number> {
    return this.ids.next(sequence);
  }

  reserve(sequence: 'posting_slots', count: number): Promise<number[]> {
    return this.ids.reserve(sequence, count);
  }
}
