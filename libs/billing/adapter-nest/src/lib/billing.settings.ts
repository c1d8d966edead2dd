import type { Plan } from '@lnk/billing/domain';

/**
 * What the billing context takes from the app's configuration, validated there once. An abstract class,
 * so it is the Nest token its consumers inject by.
 */
export abstract class BillingSettings {
  /** PLANS: the catalogue, its one free plan every account's until it pays or is assigned another. */
  abstract readonly plans: readonly Plan[];
}
