// The domains/domain library's public surface; its context's issue fills it.
export {};
