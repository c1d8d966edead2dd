// The links/adapter-typeorm library's public surface; its context's issue fills it.
export {};
