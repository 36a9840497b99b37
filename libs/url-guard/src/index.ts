export { checkUrl, isForbiddenAddress, literalAddress, pickAddress, type ResolvedAddress } from './policy.js';
export { guardedGet, UrlRefusedError, type GuardedGetOptions, type GuardedResponse } from './guarded-get.js';
