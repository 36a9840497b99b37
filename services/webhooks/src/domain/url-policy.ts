/** Where a webhook may connect: the shared policy for addresses a user gives. */
export { checkUrl, isForbiddenAddress, literalAddress, pickAddress } from '@spa/url-guard';
