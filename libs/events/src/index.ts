export { EVENT_VERSIONS, decodePublicEvent, encodePublicEvent, eventIdOf, publicEvent, publishPublicEvent, type PublicEventRecord } from './public-event.js';
export { EventOutbox, type LandedCheck, type QueuedEvent } from './outbox.js';
