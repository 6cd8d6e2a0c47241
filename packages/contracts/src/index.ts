export * from './access.ts';
export * from './auth.ts';
export * from './catalogue.ts';
export * from './constants.ts';
export * from './isbn.ts';
export * from './money.ts';
export * from './schemas.ts';
export * from './selling.ts';
