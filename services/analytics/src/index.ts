/** What benchmarks drive in process: the store and the use cases (the service itself runs from main.ts). */
export { MongoAnalyticsStore } from './data/mongo-store.js';
export { attributeGrowth } from './domain/attribute.js';
export { addPostGrowth } from './domain/bucket-growth.js';
export type { Metrics, MonthBucket } from './domain/model.js';
export type { AnalyticsDeps, AnalyticsStore } from './domain/ports.js';
export { recordResult } from './domain/record-result.js';
export { timeseries } from './domain/timeseries.js';
