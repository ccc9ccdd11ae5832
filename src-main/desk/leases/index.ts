export { type ClaimResult, DeskLeases, type DeskLeasesOptions, defaultHolder, LeaseLostError, type LeaseOutcome } from './leases';
export { LEASES_SCHEMA } from './schema';
