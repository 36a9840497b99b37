/** What benchmarks drive in process: the store and its list index (the service itself runs from main.ts). */
export { MongoPostsStore } from './data/mongo-store.js';
export { PostListIndex, CHUNK_SPAN } from './data/list-index.js';
export { FULL_SCAN_INTERVAL_MS } from './domain/publishing.js';
