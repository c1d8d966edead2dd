export * from './lib/cached-certificate-host-lookup';
