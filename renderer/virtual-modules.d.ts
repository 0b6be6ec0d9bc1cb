// Modules written at build time by vite.config.ts's plugins.
declare module 'virtual:emoji-sprites.css';
