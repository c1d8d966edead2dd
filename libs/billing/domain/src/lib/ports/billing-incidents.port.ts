/** What billing must tell an operator about; the app logs it (never a provider's key or a request). */
export abstract class BillingIncidents {
  abstract cancellationFailed(providerSubscriptionId: string, reason: string): void;
}
