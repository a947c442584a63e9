export * from './offline-model';
