// The dashboard's built files (apps/web), served at /app by the API with their own Content-Security-Policy.
export * from './lib/dashboard-build';
export * from './lib/serve-dashboard';
