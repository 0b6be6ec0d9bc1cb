export * from './narrow';
export * from './parse';
export * from './match';
export * from './mark-read';
