export * from './lib/bowser-click-dimensions';
